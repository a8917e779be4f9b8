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
  };
  for (const [label, text] of Object.entries(cases)) {
    it(`removes the key ${label}`, () => {
      const out = scrub(text, [KEY]);
      expect(out).toContain('mk_test_…(redacted)');
      for (const form of formsOf(KEY)) expect(out).not.toContain(form);
      // The secret's bytes cannot be decoded back from what is left.
      expect(Buffer.from(out.replace(/[^A-Za-z0-9+/]/g, ''), 'base64').toString('latin1')).not.toContain('0123456789abcdef');
    });
  }

  it('leaves a text without the key unchanged', () => {
    expect(scrub('{"result":{"worldId":"w_1"}}', [KEY, undefined])).toBe('{"result":{"worldId":"w_1"}}');
  });

  it('redacts credentials in headers and the key in any header value', () => {
    expect(redactHeaders({ 'X-API-Key': KEY, 'x-echo': Buffer.from(KEY).toString('base64'), date: 'today' }, [KEY]))
      .toEqual({ 'x-api-key': 'mk_test_…(redacted)', 'x-echo': 'mk_test_…(redacted)', date: 'today' });
  });

  it('catches key-looking values the run does not know', () => {
    expect(redactKeyLike('got mk_live_Other99 here')).toBe('got mk_live_…(redacted) here');
  });
});
