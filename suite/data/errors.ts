// Why a run could not start (bad option, unreachable target, live key refused): one clear line and
// exit 2 (0 pass, 1 fail, 2 could not start). The commands of cli/ show it as is.
export class UsageError extends Error {
  readonly exitCode = 2;
}
