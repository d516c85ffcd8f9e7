import { describe, expect, it } from 'vitest';
import { answerText, bodyOf, eventually, refused, statusOf, succeeded } from '../../core/answers.js';
import { exchange } from '../checks/fixtures.js';

describe('reading an answer', () => {
  const timeout = exchange({ transportError: { code: 'CNF_TIMEOUT', message: 'after 10000 ms' } });
  it.each([
    ['a 200 object', exchange({ status: 200, body: { id: 'a' } }), { status: 200, body: { id: 'a' }, succeeded: true, refused: false, text: '200 {"id":"a"}' }],
    ['a 422', exchange({ status: 422, body: { detail: [] } }), { status: 422, body: { detail: [] }, succeeded: false, refused: true, text: '422 {"detail":[]}' }],
    ['a 500 array', exchange({ status: 500, body: [1] }), { status: 500, body: undefined, succeeded: false, refused: false, text: '500 [1]' }],
    ['no answer', timeout, { status: undefined, body: undefined, succeeded: false, refused: false, text: 'no answer (CNF_TIMEOUT: after 10000 ms)' }],
    ['no request', undefined, { status: undefined, body: undefined, succeeded: false, refused: false, text: 'nothing (no request was sent)' }],
  ])('%s', (_name, given, want) => {
    expect(statusOf(given)).toBe(want.status);
    expect(bodyOf(given)).toEqual(want.body);
    expect(succeeded(given)).toBe(want.succeeded);
    expect(refused(given)).toBe(want.refused);
    expect(answerText(given)).toBe(want.text);
  });

  it('cuts a long body to 160 characters', () => {
    const text = answerText(exchange({ status: 200, rawBody: 'x'.repeat(500) }));
    expect(text).toBe(`200 ${'x'.repeat(160)}…`);
  });
});

describe('eventually', () => {
  it('returns true as soon as an attempt succeeds', async () => {
    let attempts = 0;
    expect(await eventually(async () => ++attempts === 3, 1000, 1)).toBe(true);
    expect(attempts).toBe(3);
  });

  it('returns false once the time is up, after at least one attempt', async () => {
    let attempts = 0;
    expect(await eventually(async () => (attempts++, false), 0, 1)).toBe(false);
    expect(attempts).toBe(1);
  });
});
