// Slow and flaky deployments: a fault no one requirement names (any MUST), and a control that must pass.
import type { Fault } from '../faults.ts';
import { MUST_IDS, flakyFault, slowFault } from './helpers.ts';

export const FAULTS: Fault[] = [
  {
    id: 'flaky-every-7th-503', areas: ['worlds'], expected: MUST_IDS, expectedLabel: 'any MUST',
    description: 'every 7th request is answered 503',
    ...flakyFault(7),
  },
  {
    id: 'control-slow-but-correct', areas: ['worlds'], expected: [], timeoutMs: 1_000,
    description: 'control: every answer 50 ms late, well within the 1 s request timeout (must pass)',
    ...slowFault(50, { documentToo: false }),
  },
];
