// Redaction of recorded traffic: credentials and secret fields become placeholders naming their
// variable; secrets in answers are masked to the same byte length, so the answer's checks agree.
import { describe, expect, test } from 'vitest';
import { placeholder, redactRequest, redactResponse } from '../../../engine/observed/redact.js';

const names = new Map<string, string>();
const name = (value: string): string => {
  if (!names.has(value)) names.set(value, `CONFORMANCE_TOKEN_${names.size + 1}`);
  return names.get(value)!;
};

describe('redactRequest', () => {
  test('credential headers, secret query parameters and body fields become placeholders', () => {
    const redacted = redactRequest({
      method: 'POST',
      url: 'https://api.example.com/v1/oauth2/token?access_token=abc&limit=5',
      headers: { authorization: 'Bearer polar_oat_1', cookie: 'session=s1', 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' },
      body: 'grant_type=authorization_code&client_id=c&client_secret=very-secret&code=xyz',
    }, name);
    expect(redacted.headers).toEqual({ authorization: `Bearer ${placeholder(name('polar_oat_1'))}`, cookie: placeholder(name('session=s1')), 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' });
    expect(new URL(redacted.url).searchParams.get('access_token')).toBe(placeholder(name('abc')));
    expect(new URL(redacted.url).searchParams.get('limit')).toBe('5');
    const form = new URLSearchParams(redacted.body);
    expect([form.get('client_id'), form.get('client_secret'), form.get('code')]).toEqual(['c', placeholder(name('very-secret')), placeholder(name('xyz'))]);
    expect(JSON.stringify(redacted)).not.toMatch(/polar_oat_1|very-secret|s1/);
  });

  test('JSON bodies: secret fields at any depth; empty values and other fields kept', () => {
    const redacted = redactRequest({ method: 'POST', url: 'https://h/v1/customer-seats/claim', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invitation_token: 'inv-1', nested: { token: '' , name: 'n' } }) }, name);
    expect(JSON.parse(redacted.body!)).toEqual({ invitation_token: placeholder(name('inv-1')), nested: { token: '', name: 'n' } });
  });
});

describe('redactResponse', () => {
  test('an issued token is masked to the same byte length; Set-Cookie is replaced', () => {
    const body = JSON.stringify({ access_token: 'polar_at_123', token_type: 'Bearer', expires_in: 3600 });
    const redacted = redactResponse({ status: 200, headers: { 'set-cookie': 'a=b', 'content-length': String(body.length) }, body, json: JSON.parse(body), elapsedMs: 1 });
    expect(redacted.body).not.toContain('polar_at_123');
    expect(Buffer.byteLength(redacted.body)).toBe(Buffer.byteLength(body));
    expect(redacted.json).toEqual({ access_token: 'xxxxxxxxxxxx', token_type: 'Bearer', expires_in: 3600 });
    expect(redacted.headers['set-cookie']).toBe('[redacted]');
  });
});
