// A served document's `pattern` never holds the suite (contract/guarded-pattern.ts): `^(a+)+$` on 40
// letters and a "!" backtracks for hours in JavaScript, and both the pattern and the string come from
// the target. A long string is matched aside within PATTERN_BUDGET_MS; past it the check is "not
// checked", never a pass nor a failure. Without the guard the first check below does not return.
import { describe, expect, it } from 'vitest';
import { OpenApiReader } from '../../contract/openapi-reader.ts';
import { ResponseValidator } from '../../contract/validate.ts';

async function validatorFor(pattern: string): Promise<ResponseValidator> {
  const doc = {
    openapi: '3.1.0', info: { title: 'patterns', version: '1' },
    paths: {
      '/t': {
        get: {
          operationId: 't',
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', pattern } } } } } } },
        },
      },
    },
  };
  return new ResponseValidator(await OpenApiReader.load(doc), 'served');
}

describe('a pattern of the served document, on a string the target sent', () => {
  it('that would backtrack for hours: not checked, said so, and not tried again', async () => {
    const v = await validatorFor('^(a+)+$');
    const first = v.checkSuccessBody('t', { name: `${'a'.repeat(40)}!` });
    expect(first.notRun).toMatch(/pattern '\^\(a\+\)\+\$' took over 2000 ms on a string of 41 characters: not checked/);
    const again = v.checkSuccessBody('t', { name: `${'a'.repeat(45)}!` });
    expect(again.notRun).toMatch(/took over 2000 ms before/);
    // A short string is still judged: it cannot take long.
    expect(v.checkSuccessBody('t', { name: 'b' }).problems.join()).toMatch(/must match pattern/);
  });

  it('that is well made: judged as JavaScript judges it, long strings included', async () => {
    const v = await validatorFor('^[a-z]+(-[a-z]+)*$');
    expect(v.checkSuccessBody('t', { name: `${'abc-'.repeat(5000)}end` })).toEqual({ ok: true, problems: [] });
    const wrong = v.checkSuccessBody('t', { name: `${'abc-'.repeat(5000)}End` });
    expect(wrong.ok).toBe(false);
    expect(wrong.notRun).toBeUndefined();
    expect(wrong.problems.join()).toMatch(/\/name must match pattern/);
    // The u flag, as JSON Schema's patterns have it: one astral character is one character.
    const astral = await validatorFor('^.{3}$');
    expect(astral.checkSuccessBody('t', { name: '😀😀😀' }).ok).toBe(true);
    expect(astral.checkSuccessBody('t', { name: `${'😀'.repeat(30)}` }).ok).toBe(false);
    expect((await validatorFor('^\\p{L}+$')).checkSuccessBody('t', { name: 'é'.repeat(30) }).ok).toBe(true);
  });
});
