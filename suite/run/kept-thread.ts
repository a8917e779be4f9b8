// One scenario thread for every run of a kept Vitest (the self-test's matrices): vitest 4.1 ends a
// worker as soon as its pool's queue is empty, so each run of the hundred-odd a matrix makes would
// start a thread, import the suite and its packages, and compile the documents again (about half of
// a short run's CPU time). This pool keeps the thread between runs: the handshakes of a run that
// finds it started ("start", "stop") are answered here, the run itself goes to the thread, whose
// module cache (isolate: false) holds what the last run imported; the scenario files themselves are
// imported afresh by every run, and the suite's run-scoped state is reset (suite/data/run-scope.ts).
// A run that ends while its files still run (a check that never yields, a cancel) ends the thread,
// as vitest would: the next run starts another. What vitest gives a thread once, at its start (the
// serialized configuration: the test timeouts among it), stays the first run's; each run's own
// configuration reaches it with the run (provide/inject), and a matrix's timeouts differ little.
import { ThreadsPoolWorker } from 'vitest/node';
import type { PoolOptions, PoolWorker } from 'vitest/node';

type Listener = (arg: any) => void;
type Message = { type?: string; __vitest_worker_request__?: boolean; __vitest_worker_response__?: boolean };

/** The thread kept between runs and whether vitest's "start" reached it. */
interface Kept {
  thread: ThreadsPoolWorker;
  started: boolean;
  /** A run or a collection was sent and has not finished. */
  busy: boolean;
  /** Vitest's "stop" reached the thread (a run cancelled under way): it tore its environment down. */
  tornDown: boolean;
}
let kept: Kept | undefined;
let starts = 0;

/** Threads this process has started for kept Vitests (a test counts them). */
export const keptThreadStarts = (): number => starts;

export const KEPT_THREAD_POOL = 'kept-thread';

class KeptThread implements PoolWorker {
  readonly name = KEPT_THREAD_POOL;
  private own?: Kept;
  private readonly added: Array<[string, Listener]> = [];
  private readonly local = new Set<Listener>();

  constructor(private readonly options: PoolOptions) {}

  async start(): Promise<void> {
    if (!kept) {
      kept = { thread: new ThreadsPoolWorker(this.options), started: false, busy: false, tornDown: false };
      starts++;
      const mine = kept;
      await mine.thread.start();
      // A thread that dies between runs is not handed to the next one.
      mine.thread.on('exit', () => { if (kept === mine) kept = undefined; });
    }
    this.own = kept;
  }

  on(event: string, callback: Listener): void {
    if (event === 'message') this.local.add(callback);
    this.own!.thread.on(event, callback);
    this.added.push([event, callback]);
  }

  off(event: string, callback: Listener): void {
    if (event === 'message') this.local.delete(callback);
    this.own?.thread.off(event, callback);
  }

  send(message: Message): void {
    const own = this.own!;
    if (message.type === 'start' && own.started) return this.answer('started');
    if (message.type === 'stop' && !own.busy) return this.answer('stopped');
    if (message.type === 'start') own.started = true;
    if (message.type === 'stop') own.tornDown = true;
    if (message.type === 'run' || message.type === 'collect') own.busy = true;
    own.thread.send(message as never);
  }

  deserialize(data: unknown): unknown {
    const message = data as Message;
    if (message?.__vitest_worker_response__ && message.type === 'testfileFinished' && this.own) this.own.busy = false;
    return data;
  }

  /** Ends the thread when a run is still going on in it or it was told to stop; otherwise it waits for the next run. */
  async stop(): Promise<void> {
    const own = this.own;
    for (const [event, callback] of this.added.splice(0)) own?.thread.off(event, callback);
    this.local.clear();
    if (own && (own.busy || own.tornDown)) await endThread(own);
  }

  /** The worker's answer to a handshake the kept thread has already made. */
  private answer(type: 'started' | 'stopped'): void {
    const listeners = [...this.local];
    queueMicrotask(() => { for (const l of listeners) l({ type, __vitest_worker_response__: true }); });
  }
}

async function endThread(own: Kept): Promise<void> {
  if (kept === own) kept = undefined;
  await own.thread.stop().catch(() => undefined);
}

/** The pool for vitest's `pool` option. */
export const keptThreadPool = { name: KEPT_THREAD_POOL, createPoolWorker: (options: PoolOptions) => new KeptThread(options) };

/** Ends the kept thread (the kept Vitest is closed). */
export async function endKeptThread(): Promise<void> {
  if (kept) await endThread(kept);
}
