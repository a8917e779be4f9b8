// What a run keeps of an answer (an exchange's body, a failure's excerpt) is a copy: in V8 a slice of a
// string is a view that keeps the whole string alive, so each kept excerpt held its whole answer
// (8 MB answers to every request took the command's tree from 315 to 691 MB).
import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CheckFailure } from '../../suite/data/failure.ts';
import { cut, excerpt } from '../../suite/data/exchange.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 2 ** 20;

/** The heap this process keeps after `keep` made what it returns from a 40 MB answer that is then dropped. */
function kept<T>(keep: (answer: string) => T): { heldMb: number; value: T } {
  gc();
  const before = process.memoryUsage().heapUsed;
  // Decoded as undici decodes an answer (UTF-8: a string in the heap; a large latin1 one would be external).
  let answer: string | undefined = Buffer.alloc(40 * MB, 'a').toString('utf8');
  const value = keep(answer);
  answer = undefined;
  gc();
  return { heldMb: (process.memoryUsage().heapUsed - before) / MB, value };
}

describe('an excerpt kept from a long answer', () => {
  it('in a failure (`reply.text.slice(0, 300)` as what was received) does not keep the answer', () => {
    const { heldMb, value } = kept((answer) => new CheckFailure({ title: 'expected a 2xx', received: `200 ${answer.slice(0, 300)}` }));
    expect(value.init.received).toHaveLength(304);
    expect(heldMb).toBeLessThan(10);
  });

  it('as an exchange\'s body (cut) or an assertion\'s message (excerpt) does not keep the answer', () => {
    const { heldMb, value } = kept((answer) => [cut(answer), excerpt(answer, 200)]);
    expect(value[0]).toMatch(/^a{4096}…\(41938944 more bytes\)$/);
    expect(value[1]).toBe('a'.repeat(200));
    expect(heldMb).toBeLessThan(10);
  });

  it('would keep it as a plain slice (the measure can tell)', () => {
    const { heldMb, value } = kept((answer) => `200 ${answer.slice(0, 300)}`);
    expect(value).toHaveLength(304);
    expect(heldMb).toBeGreaterThan(30);
  });
});
