// Where a chat's time goes, without HTTP: the engine alone on a plain world, then the same chat as
// the handler runs it (a store edit: thaw the frozen world, run the engine, freeze the draft,
// append the event to the log). Microseconds per chat after a warm-up, in the bench's world.
import * as engine from '../reference/engine/world/index.ts';
import { createMemoryStore } from '../reference/store/index.ts';
import { simulateWorld } from '../reference/server/context.ts';

const ENTITIES = [{ name: 'ana', type: 'persona' }, { name: 'ben', type: 'persona' }, { name: 'user', type: 'user' }];
const BODY = { from: 'user', to: 'ana', message: 'Good morning! The harbor looks lovely today.' };
const WARM = 3_000;
const TIMED = 20_000;

function perChat(run: () => unknown): number {
  for (let i = 0; i < WARM; i++) run();
  const started = performance.now();
  for (let i = 0; i < TIMED; i++) run();
  return ((performance.now() - started) / TIMED) * 1000;
}

export function benchChatCost(): { engineUs: number; handlerUs: number } {
  const world = engine.newWorld({ definition: { identity: { name: 'Bench' } }, entities: ENTITIES }, 'w-bench', 0);
  const store = createMemoryStore();
  store.insert('world', 'bench', 'w-bench', 0, world);
  const ctx = { store, now: () => 0 };
  const engineUs = perChat(() => engine.chat(world, BODY));
  const handlerUs = perChat(() => simulateWorld(ctx, 'bench', 'w-bench', (w) => engine.chat(w, BODY)));
  store.close();
  return { engineUs, handlerUs };
}
