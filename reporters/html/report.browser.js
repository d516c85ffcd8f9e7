/*
 * The HTML report's one script, inlined in the page's <script> element and the only script the
 * Content-Security-Policy runs (by its SHA-256 hash): the filter of the failures and the matrix
 * (by status, check and operation), and the copy buttons: the Clipboard API where the browser
 * allows it (file:// pages often do not), else select the command so that Ctrl+C copies it.
 * See docs/reports.md (HTML). This comment is left out of the page and of the hash.
 */

(function () {
  var status = document.getElementById('filter-status');
  var check = document.getElementById('filter-check');
  var operation = document.getElementById('filter-operation');
  var count = document.getElementById('filter-count');
  if (!status || !check || !operation) return;
  function apply() {
    var s = status.value, c = check.value, o = operation.value.trim().toLowerCase();
    var shown = 0;
    document.querySelectorAll('.matrix tbody tr').forEach(function (row) {
      var opOk = !o || (row.getAttribute('data-operation') || '').toLowerCase().indexOf(o) !== -1;
      var any = false;
      row.querySelectorAll('td.cell').forEach(function (cell) {
        var ok = (!c || cell.getAttribute('data-check') === c) && (!s || cell.getAttribute('data-status') === s);
        cell.classList.toggle('dim-by-filter', !ok);
        if (ok && cell.hasAttribute('data-status')) any = true;
      });
      var visible = opOk && (any || (!s && !c));
      row.classList.toggle('hidden-by-filter', !visible);
      if (visible) shown += 1;
    });
    var failures = 0;
    document.querySelectorAll('.operation-group').forEach(function (group) {
      var opOk = !o || (group.getAttribute('data-operation') || '').toLowerCase().indexOf(o) !== -1;
      var left = 0;
      group.querySelectorAll('article.failure').forEach(function (article) {
        var ok = opOk && (!c || article.getAttribute('data-check') === c) && (!s || s === 'failed');
        article.classList.toggle('hidden-by-filter', !ok);
        if (ok) left += 1;
      });
      group.classList.toggle('hidden-by-filter', left === 0);
      failures += left;
    });
    if (count) count.textContent = (s || c || o) ? shown + ' operations, ' + failures + ' failures shown' : '';
  }
  [status, check].forEach(function (control) { control.addEventListener('change', apply); });
  operation.addEventListener('input', apply);
})();
document.addEventListener('click', function (event) {
  var button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  var status = button.parentElement ? button.parentElement.querySelector('.copy-status') : null;
  if (!source) return;
  var text = source.textContent || '';
  function say(message) {
    if (status) status.textContent = message;
    setTimeout(function () { if (status) status.textContent = ''; }, 3000);
  }
  function selectIt() {
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    if (selection) { selection.removeAllRanges(); selection.addRange(range); }
    var copied = false;
    try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
    say(copied ? 'Copied' : 'Selected: press Ctrl+C (\u2318C) to copy');
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { say('Copied'); }, selectIt);
  } else {
    selectIt();
  }
});
