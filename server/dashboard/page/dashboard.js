// The reference server's dashboard (docs/dashboard.md): reads GET /__control/overview whenever
// /__dashboard/changes says the store may have changed (or every 2 s when that stream is not
// available), and acts through the control API. Plain browser JavaScript, no build step and no
// library; every text from the server is set as text, never as HTML.

const KINDS = [
  ['subscriptions', 'Subscriptions'],
  ['orders', 'Orders'],
  ['products', 'Products'],
  ['customers', 'Customers'],
  ['refunds', 'Refunds'],
  ['license_keys', 'License keys'],
  ['seats', 'Seats'],
  ['webhook_endpoints', 'Endpoints'],
];
const POLL_MS = 2000;

const state = { overview: null, kind: 'subscriptions', open: new Set(), loading: false, again: false };

const $ = (id) => document.getElementById(id);

/** An element with attributes and children (strings become text nodes). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') element.className = value;
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
const shortFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** A stored timestamp as `13 May 2027, 08:00:00` (`short`: `13 May 2027, 08:00`), in a <time> element. */
function when(timestamp, short = false) {
  if (!timestamp) return h('span', { class: 'muted' }, '—');
  const date = new Date(timestamp);
  return h('time', { datetime: timestamp }, Number.isNaN(date.getTime()) ? timestamp : (short ? shortFormat : dateFormat).format(date));
}

/** Cents as money: `$19.00`. */
function money(cents, currency) {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/** A short form of an id, the whole id for assistive technology and copying. */
function shortId(id) {
  return h('code', { class: 'id', title: id }, id);
}

function badge(text, tone) {
  return h('span', { class: `badge badge-${tone}` }, text);
}

const STATUS_TONES = { active: 'good', paid: 'good', granted: 'good', claimed: 'good', succeeded: 'good', trialing: 'info', pending: 'warn', past_due: 'warn', incomplete: 'warn', canceled: 'neutral', revoked: 'neutral', unpaid: 'bad', incomplete_expired: 'neutral', paused: 'neutral', failed: 'bad' };

function status(text) {
  return badge(text.replace(/_/g, ' '), STATUS_TONES[text] ?? 'neutral');
}

function billing(interval, count) {
  if (!interval) return 'one-time';
  if (!count || count === 1) return { day: 'daily', week: 'weekly', month: 'monthly', year: 'yearly' }[interval] ?? interval;
  return `every ${count} ${interval}s`;
}

function priceText(price) {
  if (price.amount_type === 'fixed') return price.amount === 0 ? 'free' : money(price.amount, price.currency);
  if (price.amount_type === 'custom') return `pay what you want (from ${money(price.amount ?? 0, price.currency)})`;
  if (price.amount_type === 'seat_based') return 'per seat';
  return price.amount_type.replace(/_/g, ' ');
}

/** Sends a control request; its error, in the API's format, becomes the message. */
async function control(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    const detail = json && json.detail;
    const reason = Array.isArray(detail) ? detail.map((entry) => entry.msg).join('; ') : typeof detail === 'string' ? detail : `HTTP ${response.status}`;
    throw new Error(reason);
  }
  return json;
}

function say(text, tone = 'info') {
  const message = $('message');
  message.textContent = text;
  message.dataset.tone = tone;
}

/** Runs an action: its button is busy meanwhile, its outcome is said in the message line. */
async function act(button, work) {
  if (button) button.setAttribute('aria-busy', 'true');
  try {
    const said = await work();
    if (said) say(said, 'good');
    await refresh();
  } catch (error) {
    say(error.message, 'bad');
  } finally {
    if (button) button.removeAttribute('aria-busy');
  }
}

// ---- rendering ----

function table(caption, columns, rows) {
  if (rows.length === 0) return h('p', { class: 'empty' }, `No ${caption.toLowerCase()} in the store.`);
  return h(
    'div',
    { class: 'table-box' },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, columns.map((column) => h('th', { scope: 'col' }, column)))),
      h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((cell, i) => (i === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell)))))),
    ),
  );
}

function named(primary, id) {
  return h('div', { class: 'named' }, h('span', { class: 'primary' }, primary ?? '—'), shortId(id));
}

function details(key, summary, ...content) {
  const element = h('details', { 'data-key': key, open: state.open.has(key) }, h('summary', { 'data-key': `${key}:summary` }, summary), ...content);
  element.addEventListener('toggle', () => (element.open ? state.open.add(key) : state.open.delete(key)));
  return element;
}

const PANELS = {
  subscriptions: (o) =>
    table('Subscriptions', ['Customer', 'Plan', 'Status', 'Current period', 'Payments', 'Status history'], o.subscriptions.map((s) => [
      named(s.customer.email, s.id),
      h('div', { class: 'named' }, h('span', { class: 'plan' }, s.product.name ?? '—'), h('span', { class: 'muted' }, money(s.amount, s.currency), s.seats ? ` · ${s.seats} seat${s.seats === 1 ? '' : 's'}` : '')),
      h('span', { class: 'stack' }, status(s.status), s.cancel_at_period_end ? badge('cancels at period end', 'warn') : null),
      h('span', { class: 'period' }, when(s.current_period_start, true), h('span', { class: 'arrow', 'aria-label': 'to' }, ' → '), when(s.current_period_end, true)),
      s.test_clock
        ? h(
            'button',
            {
              type: 'button',
              class: 'small toggle',
              'data-key': `fail:${s.id}`,
              'aria-pressed': s.fail_payments ? 'true' : 'false',
              'aria-label': `Fail payments of ${s.customer.email ?? s.id}'s ${s.product.name ?? 'subscription'}`,
              onclick: (event) => act(event.currentTarget, async () => {
                await control('POST', `/__control/subscriptions/${s.id}/payment-failures`, { fail: !s.fail_payments });
                return s.fail_payments ? 'Payments will succeed again.' : 'Payments will fail from the next charge on.';
              }),
            },
            'Fail payments',
          )
        : h('span', { class: 'muted' }, 'not on the test clock'),
      s.history.length === 0
        ? h('span', { class: 'muted' }, 'no change yet')
        : details(`history:${s.id}`, `${s.history.length} change${s.history.length === 1 ? '' : 's'}`, h('ol', { class: 'history' }, s.history.map((change) => h('li', {}, when(change.at, true), ' ', status(change.status), ' ', h('span', { class: 'muted' }, change.type.replace(/^subscription\./, '')))))),
    ])),
  orders: (o) =>
    table('Orders', ['Order', 'Created', 'Customer', 'Product', 'Reason', 'Status', 'Total'], o.orders.map((order) => [
      shortId(order.id),
      when(order.created_at, true),
      order.customer.email ?? '—',
      order.product.name ?? '—',
      order.billing_reason.replace(/_/g, ' '),
      h('span', { class: 'stack' }, status(order.status), order.refunded_amount > 0 ? badge(`refunded ${money(order.refunded_amount, order.currency)}`, 'neutral') : null),
      h('span', { class: 'number' }, money(order.total_amount, order.currency)),
    ])),
  products: (o) =>
    table('Products', ['Product', 'Billing', 'Prices', 'Benefits', 'Visibility'], o.products.map((p) => [
      named(p.name, p.id),
      billing(p.recurring_interval, p.recurring_interval_count),
      p.prices.map(priceText).join(', ') || '—',
      p.benefits.join(', ') || '—',
      h('span', { class: 'stack' }, p.visibility, p.is_archived ? badge('archived', 'neutral') : null),
    ])),
  customers: (o) =>
    table('Customers', ['Customer', 'Name', 'External id', 'Created'], o.customers.map((c) => [
      named(c.email, c.id),
      h('span', { class: 'stack' }, c.name ?? '—', c.deleted ? badge('deleted', 'neutral') : null),
      c.external_id ? h('code', {}, c.external_id) : '—',
      when(c.created_at),
    ])),
  refunds: (o) =>
    table('Refunds', ['Refund', 'Created', 'Order', 'Amount', 'Status', 'Reason'], o.refunds.map((r) => [shortId(r.id), when(r.created_at), shortId(r.order_id), money(r.amount, r.currency), status(r.status), r.reason.replace(/_/g, ' ')])),
  license_keys: (o) =>
    table('License keys', ['Key', 'Customer', 'Benefit', 'Status', 'Usage', 'Expires'], o.license_keys.map((k) => [named(k.display_key, k.id), k.customer.email ?? '—', k.benefit ?? '—', status(k.status), k.limit_usage === null ? String(k.usage) : `${k.usage} / ${k.limit_usage}`, k.expires_at ? when(k.expires_at) : 'never'])),
  seats: (o) =>
    table('Seats', ['Seat', 'Email', 'Subscription', 'Status', 'Claimed'], o.seats.map((seat) => [shortId(seat.id), seat.email ?? '—', seat.subscription_id ? shortId(seat.subscription_id) : '—', status(seat.status), when(seat.claimed_at)])),
  webhook_endpoints: (o) =>
    table('Webhook endpoints', ['Endpoint', 'Events', 'Enabled'], o.webhook_endpoints.map((e) => [named(e.name ?? e.url, e.id), e.events.join(', ') || '—', e.enabled ? badge('enabled', 'good') : badge('disabled', 'neutral')])),
};

function renderTabs(o) {
  const tabs = $('tabs');
  tabs.replaceChildren(
    ...KINDS.map(([kind, label]) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `tab-${kind}`,
          'data-key': `tab:${kind}`,
          'aria-selected': kind === state.kind ? 'true' : 'false',
          'aria-controls': 'panel',
          tabindex: kind === state.kind ? '0' : '-1',
          onclick: () => select(kind, false),
        },
        label,
        h('span', { class: 'count' }, o.counts[kind] ?? 0),
      ),
    ),
  );
  $('panel').setAttribute('aria-labelledby', `tab-${state.kind}`);
}

function select(kind, focus) {
  state.kind = kind;
  if (state.overview) render(state.overview);
  if (focus) document.querySelector(`[data-key="tab:${kind}"]`)?.focus();
}

function renderDeliveries(o) {
  $('deliveries-count').textContent = o.counts.deliveries > 0 ? `${o.counts.deliveries}` : '';
  $('deliveries').replaceChildren(
    ...(o.deliveries.length === 0
      ? [h('li', { class: 'empty' }, 'No delivery yet. Webhook endpoints subscribed to an event get it here, each attempt with its answer.')]
      : o.deliveries.map((d) => {
          const code = d.response_status === null ? (d.error ?? 'no answer') : `HTTP ${d.response_status}`;
          return h(
            'li',
            { class: `delivery delivery-${d.status}`, 'data-delivery': d.id },
            h(
              'div',
              { class: 'delivery-head' },
              badge(code, d.status === 'succeeded' ? 'good' : d.response_status === null ? 'neutral' : 'bad'),
              h('strong', { class: 'event-type' }, d.event_type),
              h(
                'button',
                {
                  type: 'button',
                  class: 'small resend',
                  'data-key': `resend:${d.id}`,
                  'aria-label': `Resend ${d.event_type}, attempt ${d.attempt}, to ${d.url}`,
                  onclick: (event) => act(event.currentTarget, async () => {
                    const queued = await control('POST', `/__control/webhook-deliveries/${d.id}/resend`, {});
                    return `Resending ${d.event_type} as attempt ${queued.attempt}.`;
                  }),
                },
                'Resend',
              ),
            ),
            h('p', { class: 'delivery-meta' }, when(d.created_at), h('span', { class: 'attempt' }, `attempt ${d.attempt}`), h('span', { class: 'latency' }, `${d.duration_ms < 1 ? '<1' : Math.round(d.duration_ms)} ms`)),
            h('p', { class: 'delivery-url' }, d.url),
            d.response_body
              ? h('p', { class: 'answer' }, h('span', { class: 'answer-label' }, 'Answer'), h('code', {}, d.response_body))
              : d.error && d.response_status !== null
                ? null
                : h('p', { class: 'answer muted' }, d.response_status === null ? d.error ?? 'no answer' : 'empty answer'),
          );
        })),
  );
}

function renderEvents(o) {
  $('events-count').textContent = o.counts.events > 0 ? `${o.counts.events}` : '';
  $('events').replaceChildren(
    ...(o.events.length === 0
      ? [h('li', { class: 'empty' }, 'No event yet: requests, control actions and clock advances add them.')]
      : o.events.map((e) => h('li', { class: 'event' }, when(e.timestamp), h('code', { class: 'event-type' }, e.type), e.status ? status(e.status) : null, e.subject ? shortId(e.subject) : null))),
  );
}

function renderStartForm(o) {
  const customers = $('start-customer');
  const products = $('start-product');
  const keep = (select) => select.value;
  const customer = keep(customers);
  const product = keep(products);
  customers.replaceChildren(...o.customers.filter((c) => !c.deleted).map((c) => h('option', { value: c.id }, c.name ? `${c.name} <${c.email}>` : c.email)));
  products.replaceChildren(...o.products.filter((p) => p.recurring_interval && !p.is_archived && p.prices.length > 0).map((p) => h('option', { value: p.id }, p.name)));
  if (customer) customers.value = customer;
  if (product) products.value = product;
}

function render(o) {
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : undefined;
  $('clock-now').textContent = dateFormat.format(new Date(o.now)) + ' UTC';
  $('clock-now').setAttribute('datetime', o.now);
  const days = o.clock_offset_ms / 86_400_000;
  $('clock-offset').textContent = o.clock_offset_ms === 0 ? 'at its base' : `${days >= 1 ? `${Math.round(days * 10) / 10} days` : `${Math.round(o.clock_offset_ms / 60_000)} min`} ahead`;
  renderTabs(o);
  $('panel').replaceChildren(PANELS[state.kind](o), o.counts[state.kind] > o[state.kind].length ? h('p', { class: 'muted more' }, `The newest ${o[state.kind].length} of ${o.counts[state.kind]}.`) : '');
  renderStartForm(o);
  renderDeliveries(o);
  renderEvents(o);
  // A re-render replaces the rows: focus goes back to the control that had it.
  if (focused) document.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

async function refresh() {
  if (state.loading) {
    state.again = true;
    return;
  }
  state.loading = true;
  try {
    do {
      state.again = false;
      const overview = await control('GET', '/__control/overview');
      state.overview = overview;
      render(overview);
    } while (state.again);
  } catch (error) {
    say(`Cannot read the store: ${error.message}`, 'bad');
  } finally {
    state.loading = false;
  }
}

// ---- live updates ----

function live(text, tone) {
  const element = $('live');
  element.textContent = text;
  element.dataset.tone = tone;
}

function connect() {
  if (!('EventSource' in window)) return poll();
  const source = new EventSource('/__dashboard/changes');
  source.addEventListener('change', () => {
    live('Live', 'good');
    void refresh();
  });
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) {
      live('Polling every 2 s', 'warn');
      poll();
    } else {
      live('Reconnecting…', 'warn');
    }
  });
}

function poll() {
  void refresh();
  setInterval(() => void refresh(), POLL_MS);
}

// ---- actions ----

/** The instant a calendar month after `now` (ISO 8601), clamped to the month's last day, as billing periods are. */
function monthAfter(now) {
  const date = new Date(now);
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), last));
  return target.toISOString();
}

function wire() {
  $('advance-day').addEventListener('click', (event) => act(event.currentTarget, async () => `Clock advanced a day, to ${dateFormat.format(new Date((await control('POST', '/__control/clock/advance', { by: 'P1D' })).now))} UTC.`));
  $('advance-month').addEventListener('click', (event) => act(event.currentTarget, async () => `Clock advanced a month, to ${dateFormat.format(new Date((await control('POST', '/__control/clock/advance', { by: 'P1M' })).now))} UTC.`));
  $('advance-to-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = $('advance-to').value;
    const to = `${value.length === 16 ? `${value}:00` : value}Z`;
    void act(event.submitter, async () => `Clock advanced to ${dateFormat.format(new Date((await control('POST', '/__control/clock/advance', { to })).now))} UTC.`);
  });
  $('start-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const body = {
      customer_id: $('start-customer').value,
      product_id: $('start-product').value,
      trial_days: Number($('start-trial').value || 0),
      fail_payments: $('start-fail').checked,
    };
    void act(event.submitter, async () => {
      const subscription = await control('POST', '/__control/test-clock/subscriptions', body);
      select('subscriptions', false);
      return `Subscription ${subscription.id} started: ${subscription.status}, its period ends ${dateFormat.format(new Date(subscription.current_period_end))} UTC.`;
    });
  });
  $('reset').addEventListener('click', (event) => act(event.currentTarget, async () => {
    await control('POST', '/__control/reset', {});
    return 'The store is back to the data the server started with.';
  }));
  // The tabs: arrow keys, Home and End move between them (WAI-ARIA Authoring Practices, Tabs).
  $('tabs').addEventListener('keydown', (event) => {
    const index = KINDS.findIndex(([kind]) => kind === state.kind);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: KINDS.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(KINDS[(next + KINDS.length) % KINDS.length][0], true);
  });
  // The advance-to field starts a month after the store's clock, once known.
  const prefill = setInterval(() => {
    if (!state.overview) return;
    clearInterval(prefill);
    if (!$('advance-to').value) $('advance-to').value = monthAfter(state.overview.now).slice(0, 19);
  }, 100);
}

wire();
connect();
