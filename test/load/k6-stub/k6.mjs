// Stand-in for k6's 'k6' module: records checks and sleeps in globalThis.__k6 (set by the test).
export function check(value, sets) {
  for (const [name, f] of Object.entries(sets)) globalThis.__k6.checks.push({ name, ok: typeof f === 'function' ? Boolean(f(value)) : Boolean(f) });
  return true;
}
export function sleep(seconds) {
  globalThis.__k6.sleeps.push(seconds);
}
