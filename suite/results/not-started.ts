// The results of a run that never reached its checks: the preflight found the target unreachable, not
// the service, or refusing the key; or Ctrl-C came first. A CI step that publishes junit.xml must
// still find one, with the cause as a failed testcase, rather than an empty folder.
import { REQUIREMENTS, type Level } from '../../contract/requirements.ts';
import type { Outcome, RunResult } from './results.ts';

const OUTCOMES: Outcome[] = ['fail', 'error', 'warn', 'partial', 'pass', 'skip', 'not-run'];

export function notStartedResult(input: { cause: string; startedAt: Date; target?: RunResult['target']; config: Record<string, unknown> }): RunResult {
  const reason = `not run: ${input.cause}`;
  const requirements = REQUIREMENTS.map((q) => ({ id: q.id, level: q.level, area: q.area, title: q.title, clause: q.clause, outcome: 'not-run' as const, checks: [reason] }));
  const summary = { MUST: {}, SHOULD: {} } as RunResult['summary'];
  for (const level of ['MUST', 'SHOULD'] as Level[]) {
    for (const o of OUTCOMES) summary[level][o] = o === 'not-run' ? requirements.filter((q) => q.level === level).length : 0;
  }
  return {
    tool: 'simulation-conformance', runId: 'none', startedAt: input.startedAt.toISOString(), durationMs: Date.now() - input.startedAt.getTime(),
    target: input.target ?? { baseUrl: 'the embedded reference', embedded: true }, config: input.config,
    requirements, checks: [], coverage: [], drift: [], requestCount: 0, summary, exitCode: 2, notStarted: input.cause,
  };
}
