// A check that must wait (a Retry-After, a rate window) says so first: a run is never silent for a
// minute. The HTTP layer and the scenarios announce a wait here; the scenario worker's setup file
// passes it on to the command, whose progress shows it with a countdown.
type Listener = (ms: number, why: string) => void;

/** The type of the vitest annotation a wait travels in, from a scenario worker to the command. */
export const WAIT_ANNOTATION = 'conformance:wait';

let listener: Listener = () => undefined;

/** Where announced waits go (the setup file of the scenario workers sets it). */
export function onWait(next: Listener): void {
  listener = next;
}

/** Announces a wait of `ms` milliseconds, and why, before it starts. */
export function noteWait(ms: number, why: string): void {
  listener(ms, why);
}
