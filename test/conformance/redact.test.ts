// The one redaction: a key in every form a deployment may echo it is scrubbed, and nothing else is.
import { describe, expect, it } from 'vitest';
import { formsOf, redactHeaders, redactKeyLike, scrub } from '../../suite/data/redact.ts';

const KEY = 'mk_test_redact_0123456789abcdef';

describe('scrub', () => {
  const b64 = Buffer.from(KEY).toString('base64');
  const cases: Record<string, string> = {
    verbatim: `key=${KEY};`,
    'URL-encoded': `?k=${encodeURIComponent('x ' + KEY)}`,
    'escaped in a JSON string': JSON.stringify({ k: `"${KEY}"` }),
    base64: `token ${b64}`,
    'base64 unpadded': `token ${b64.replace(/=+$/, '')}`,
    base64url: `t=${Buffer.from(KEY).toString('base64url')}`,
    'base64 of user:key (Basic)': `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}`,
    'base64 of ab:key': `Basic ${Buffer.from(`ab:${KEY}`).toString('base64')}`,
    'percent-encoded byte by byte': `?k=${[...Buffer.from(KEY)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')}`,
    'percent-encoded in lower case': [...Buffer.from(KEY)].map((b) => `%${b.toString(16)}`).join(''),
    'percent-encoded twice': encodeURIComponent([...Buffer.from(KEY)].map((b) => `%${b.toString(16)}`).join('')),
    'as JSON \\u escapes': `{"k":"${[...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join('')}"}`,
    'as C \\x escapes': [...KEY].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join(''),
    'as HTML entities': [...KEY].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
    'as decimal HTML entities, escaped once more': [...KEY].map((c) => `&amp;#${c.charCodeAt(0)};`).join(''),
    'quoted-printable': [...KEY].map((c) => `=${c.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
    hex: `id=${Buffer.from(KEY).toString('hex')}`,
    'hex in upper case': Buffer.from(KEY).toString('hex').toUpperCase(),
    'upper-cased': `X-${KEY.toUpperCase()}`,
    'base64 lower-cased (a header name)': `x-${Buffer.from(KEY).toString('base64url').toLowerCase()}: 1`,
    'base64 URL-encoded': encodeURIComponent(Buffer.from(`ab:${KEY}`).toString('base64')),
    'some characters encoded, others not': [...KEY].map((c, i) => (i % 3 === 0 ? `%${c.charCodeAt(0).toString(16)}` : i % 3 === 1 ? `\\u00${c.charCodeAt(0).toString(16)}` : c)).join(''),
  };
  for (const [label, text] of Object.entries(cases)) {
    it(`removes the key ${label}`, () => {
      const out = scrub(text, [KEY]);
      expect(out).toContain('mk_test_…(redacted)');
      for (const form of formsOf(KEY)) expect(out.toLowerCase()).not.toContain(form.toLowerCase());
      // The secret's bytes cannot be decoded back from what is left.
      expect(Buffer.from(out.replace(/[^A-Za-z0-9+/]/g, ''), 'base64').toString('latin1')).not.toContain('0123456789abcdef');
    });
  }

  it('leaves a text without the key unchanged', () => {
    expect(scrub('{"result":{"worldId":"w_1"}}', [KEY, undefined])).toBe('{"result":{"worldId":"w_1"}}');
  });

  it('redacts credentials in headers and the key in any header name or value', () => {
    expect(redactHeaders({ 'X-API-Key': KEY, 'x-echo': Buffer.from(KEY).toString('base64'), date: 'today', [`x-${KEY.toUpperCase()}`]: '1' }, [KEY]))
      .toEqual({ 'x-api-key': 'mk_test_…(redacted)', 'x-echo': 'mk_test_…(redacted)', date: 'today', 'x-mk_test_…(redacted)': '1' });
  });

  it('catches every form formsOf lists, and takes nothing else', () => {
    for (const form of formsOf(KEY)) expect(scrub(`<${form}>`, [KEY]), form).toBe('<mk_test_…(redacted)>');
    const near = `${KEY.slice(0, -1)}x ${Buffer.from(KEY.slice(0, -1)).toString('hex')}`;
    expect(scrub(near, [KEY])).toBe(near);
  });

  it('catches key-looking values the run does not know', () => {
    expect(redactKeyLike('got mk_live_Other99 here')).toBe('got mk_live_…(redacted) here');
  });
});
