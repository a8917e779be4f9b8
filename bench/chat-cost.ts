// Where a chat's time goes, without HTTP: the engine alone on a plain world, then the same chat as
// the handler runs it (a store edit: thaw the frozen world, run the engine, freeze the draft,
// append the event to the log). Microseconds per chat after a warm-up, in the bench's world.
//
// The fixed message is read once and then comes from the reading cache; `engineVariedUs` sends a
// different message each time (lines of the labelled set, numbered), so every chat pays for its
// reading, as a real conversation does.
//
// Run alone, it prints both, and with BENCH_BASELINE=<directory of another checkout> (e.g. one made
// with `git worktree add` or `git archive <commit> | tar -x`, with node_modules) it times that
// checkout's engine in the same process, interleaved, and prints after/before as a ratio:
//   BENCH_BASELINE=../engine-before npx tsx bench/chat-cost.ts
import * as engine from '../reference/engine/world/index.ts';
import { createMemoryStore } from '../reference/store/index.ts';
import { simulateWorld } from '../reference/server/context.ts';
import { TUNING } from '../test/engine/psyche/heldout/tuning.ts';

const ENTITIES = [{ name: 'ana', type: 'persona' }, { name: 'ben', type: 'persona' }, { name: 'user', type: 'user' }];
const BODY = { from: 'user', to: 'ana', message: 'Good morning! The harbor looks lovely today.' };
const WARM = 3_000;
const TIMED = 20_000;
const LINES = TUNING.map((l) => l.message);

function perChat(run: () => unknown, timed = TIMED, warm = WARM): number {
  for (let i = 0; i < warm; i++) run();
  const started = performance.now();
  for (let i = 0; i < timed; i++) run();
  return ((performance.now() - started) / timed) * 1000;
}

type Engine = Pick<typeof engine, 'newWorld' | 'chat'>;

/** Microseconds per chat of `e` on a plain world: the fixed message, or a new message every time. */
function engineCost(e: Engine, varied: boolean, timed: number): number {
  const world = e.newWorld({ definition: { identity: { name: 'Bench' } }, entities: ENTITIES }, 'w-bench', 0);
  let k = 0;
  return perChat(() => e.chat(world, varied ? { ...BODY, message: `${LINES[k % LINES.length]} (${k++})` } : BODY), timed, timed / 5);
}

export function benchChatCost(): { engineUs: number; engineVariedUs: number; handlerUs: number } {
  const world = engine.newWorld({ definition: { identity: { name: 'Bench' } }, entities: ENTITIES }, 'w-bench', 0);
  const store = createMemoryStore();
  store.insert('world', 'bench', 'w-bench', 0, world);
  const ctx = { store, now: () => 0 };
  const engineUs = perChat(() => engine.chat(world, BODY));
  const engineVariedUs = engineCost(engine, true, 5_000);
  const handlerUs = perChat(() => simulateWorld(ctx, 'bench', 'w-bench', (w) => engine.chat(w, BODY)));
  store.close();
  return { engineUs, engineVariedUs, handlerUs };
}

/** After/before: this checkout's engine against another's, timed alternately (median of ROUNDS rounds each). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
async function compare(dir: string): Promise<void> {
  const before = (await import(`${dir.replace(/\/$/, '')}/reference/engine/world/index.ts`)) as Engine;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const varied of [false, true]) {
    const b: number[] = [], a: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      b.push(engineCost(before, varied, varied ? 2_000 : 5_000));
      a.push(engineCost(engine, varied, varied ? 2_000 : 5_000));
    }
    console.log(`engine chat, ${varied ? 'a new message each time' : 'one fixed message'}: before ${median(b).toFixed(1)} µs, after ${median(a).toFixed(1)} µs, after/before ${(median(a) / median(b)).toFixed(2)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.env.BENCH_BASELINE) await compare(process.env.BENCH_BASELINE);
  else {
    const cost = benchChatCost();
    console.log(`one chat without HTTP: engine ${cost.engineUs.toFixed(1)} µs (a new message each time ${cost.engineVariedUs.toFixed(1)} µs); as the handler runs it ${cost.handlerUs.toFixed(1)} µs.`);
  }
}
