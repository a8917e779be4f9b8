// One writer at a time per world. Every change of a world is a synchronous read-modify-write, so it
// is atomic by itself; but a tick or time-jump on a large world runs in slices, giving the event
// loop back between them so that other tenants are answered meanwhile (see simulateWorldInSlices).
// While it runs, the other changes of that world wait here, in arrival order; reads go on and see
// the world as it was before the advance.
export class WriteQueues {
  private readonly tails = new Map<string, Promise<void>>();

  async run<R>(key: string, fn: () => R | Promise<R>): Promise<R> {
    const previous = this.tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => { release = resolve; });
    const tail = previous ? previous.then(() => mine) : mine;
    this.tails.set(key, tail);
    try {
      if (previous) await previous;
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
