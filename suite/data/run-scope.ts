// State a scenario worker keeps for one run (the configuration, the documents, the pacing, the
// recorded exchanges, the connections): the self-test runs many runs in one kept thread
// (suite/run/kept-thread.ts), so each such module registers how to forget its state, and the setup
// file enters every run by its id before a check reads any of it.
const resets = new Set<() => void>();
let current: string | undefined;

/** `reset` forgets what this module kept for the run under way; it is called when another run begins. */
export function runScoped(reset: () => void): void {
  resets.add(reset);
}

/** The run `runId` begins in this worker (or goes on, for its next file): state of an earlier run is forgotten. */
export function enterRun(runId: string): void {
  if (current !== undefined && current !== runId) for (const reset of resets) reset();
  current = runId;
}
