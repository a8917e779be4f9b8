// RATE-6: the main key's 429s that no check provoked. The client paces the main key under its plan
// and waits out a Retry-After before sending again (suite/http/client.ts): without this row a main key
// limited below its plan would only make the run slower. Counted over every exchange of the run, every
// lane, so that a refusal in any area is seen.
import { requirement } from '../../contract/requirements.ts';
import { curlOf, type Exchange } from '../data/exchange.ts';
import type { CheckResult, Outcome } from './results.ts';

export interface MainKeyPace {
  /** The main key's limit a minute (a window), when known: its fixed plan, or the embedded reference's key. */
  rpm?: number;
  /** What the client paced the main key at, a minute (0: unpaced). */
  paceRpm: number;
}

const TITLE = "the main key, paced under its plan's limit, is never refused 429";
const ID = `rate-limit: ${TITLE}`;

/** Answers of the main key that no check asked to be refused (a call without expect429). */
const paced = (x: Exchange) => !x.keyVariable && 'x-api-key' in x.requestHeaders && x.limited !== 'provoked';

/** The RATE-6 row of a run, from all its exchanges. */
export function mainKeyLimits(exchanges: readonly Exchange[], pace: MainKeyPace | undefined, broken: Outcome): CheckResult {
  const q = requirement('RATE-6');
  const row = { id: ID, area: q.area, title: TITLE, requirementIds: [q.id], level: q.level, durationMs: 0 };
  if (!pace?.rpm) return { ...row, operations: [] as string[], outcome: 'not-run', reason: "the main key's limit is not known (a custom plan: name a fixed one with --plan)" };
  if (pace.paceRpm > pace.rpm) return { ...row, operations: [] as string[], outcome: 'not-run', reason: `the client paced the main key at ${pace.paceRpm} a minute (--rpm), above its plan's ${pace.rpm}: a 429 then shows nothing` };
  const sent = exchanges.filter(paced);
  if (!sent.length) return { ...row, operations: [] as string[], outcome: 'not-run', reason: 'no paced request of the main key in this run' };
  const refused = sent.filter((x) => x.status === 429);
  if (!refused.length) return { ...row, operations: [...new Set(sent.map((x) => x.operationId).filter((o): o is string => !!o))], outcome: 'pass', responses: sent.length };
  const first = refused[0];
  const pacing = pace.paceRpm ? `paced at ${pace.paceRpm} a minute` : 'sent far below';
  return {
    ...row, operations: [...new Set(refused.map((x) => x.operationId).filter((o): o is string => !!o))], outcome: broken, responses: sent.length,
    failure: {
      requirementIds: [q.id], operationId: first.operationId, culprit: 'target', exchange: first, curl: curlOf(first),
      title: `the main key was refused 429 on ${refused.length} of ${sent.length} requests, ${pacing} its plan's limit of ${pace.rpm}`,
      message: `${refused.length} 429 answer(s) to the main key (${refused.filter((x) => x.limited === 'waited').length} waited out and sent again); the first: ${first.method} ${first.url}`,
      expected: `no 429 to a key sent under its plan's ${pace.rpm} requests a minute`,
      received: `${refused.length} × 429 (Retry-After ${first.responseHeaders['retry-after'] ?? 'none'} on the first)`,
    },
  };
}
