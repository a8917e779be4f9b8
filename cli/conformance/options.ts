// The options of `npm run conformance`, each with its CONFORMANCE_* environment twin.
import type { OptionSpec } from '../common/options.ts';
import { AREAS } from '../../contract/requirements.ts';
import { PLANS } from '../../contract/plans.ts';
import { DEFAULT_MAX_BODY_MB } from '../../suite/data/body-cap.ts';

export const OPTIONS = [
  { name: 'base-url', type: 'string', placeholder: 'URL', description: 'deployment to check; without it the embedded reference is started and checked' },
  { name: 'api-key', type: 'string', placeholder: 'KEY', secret: true, description: 'API key of the main tenant (required with --base-url)' },
  { name: 'second-key', type: 'string', placeholder: 'KEY', secret: true, description: 'key of another tenant: enables the isolation checks' },
  { name: 'plan', type: 'string', choices: PLANS, default: 'pro', description: "plan of --api-key: the client paces itself under its limit" },
  { name: 'rpm', type: 'integer', description: 'requests per minute to pace at (overrides the plan; 0 = no pacing)' },
  { name: 'rate-limit-key', type: 'string', placeholder: 'KEY', secret: true, description: 'a key the run may exhaust: enables the rate-limit checks' },
  { name: 'rate-limit-plan', type: 'string', choices: PLANS, description: "plan of --rate-limit-key: its number a minute is then a MUST (RATE-4); unnamed, the number is not checked and a key with no 429 is not judged (enterprise is custom: never compared)" },
  { name: 'origin-key', type: 'string', placeholder: 'KEY', secret: true, description: 'a key with an origin allowlist: enables the origin checks (with --allowed-origin)' },
  { name: 'allowed-origin', type: 'string', placeholder: 'ORIGIN', description: 'an origin on the allowlist of --origin-key' },
  { name: 'only', type: 'list', placeholder: 'AREA|ID,…', default: [], description: `run only these areas (${AREAS.join(', ')}) and requirements (e.g. PROG-3)` },
  { name: 'known-failures', type: 'string', placeholder: 'FILE', description: 'JSON or YAML list of accepted failures ({id, reason, expires}): reported, but they do not fail the run until they expire' },
  { name: 'list', type: 'boolean', default: false, description: 'print what a run would check and what it would not (with the flag each needs), send no request, exit 0' },
  { name: 'strict', type: 'boolean', default: false, description: 'SHOULD failures fail the run too' },
  { name: 'require-verified', type: 'boolean', default: false, description: 'a MUST requirement not fully verified (partly verified, not run: a check skipped or lacked a key) fails the run too (exit 1)' },
  { name: 'allow-live', type: 'boolean', default: false, description: 'accept mk_live_ keys (production, billed)' },
  { name: 'allow-billable', type: 'boolean', default: false, description: 'call the billable POST /worlds/{id}/interact (always on for the embedded reference)' },
  { name: 'keep', type: 'boolean', default: false, description: 'leave what the run created instead of soft-deleting it' },
  { name: 'report-dir', type: 'string', placeholder: 'DIR', default: 'reports', description: 'where junit.xml, results.json and report.html go' },
  { name: 'generated', type: 'integer', default: 400, placeholder: 'N', description: 'requests the generated area may send (generated inputs and stateful sequences, shrunk on failure); 0 = none' },
  { name: 'seed', type: 'integer', placeholder: 'S', description: 'seed of the generated and model areas (default: random, printed): the same seed repeats the same requests' },
  { name: 'model-commands', type: 'integer', default: 100, placeholder: 'N', description: 'commands the model area runs (random sequences of operations compared with a model of SPEC.md, shrunk on failure); 0 = none' },
  { name: 'timeout-ms', type: 'integer', default: 10_000, description: 'timeout of each request' },
  { name: 'max-body-mb', type: 'number', default: DEFAULT_MAX_BODY_MB, placeholder: 'MB', description: "an answer larger than this is the target's failure and is not read further (memory stays bounded)" },
  { name: 'deadline-s', type: 'integer', default: 1800, description: 'the whole run (preflight and checks) stops after this many seconds; cleanup then has 60 s of its own; exit 2' },
  { name: 'cleanup', type: 'string', placeholder: 'LEDGER', description: 'remove what an earlier run left (the ledger it named, e.g. reports/.created-<run>.jsonl) with --api-key, then exit' },
  { name: 'config', type: 'string', placeholder: 'FILE', description: 'JSON file of options (keys are option names); env and flags override it' },
  { name: 'no-color', type: 'boolean', default: false, description: 'plain output' },
  { name: 'self-test', type: 'boolean', default: false, description: "run the suite against faulty deployments, legal variants, document dialects and stacks (a real nginx, HTTP servers' refusals) and print the four matrices (the suite's own proof)" },
] as const satisfies readonly OptionSpec[];
