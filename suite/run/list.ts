// `--list`: what a run would check and what it would not, without a target and without a request.
// The scenario files are collected (imported, their checks read, no check or setup run) under the
// configuration the flags give; a check whose declared needs are missing would be "not run" with the
// flag that enables it, as in a run. The served document is not fetched: the bundled contract stands
// in for it, so checks drawn from a deployment's own document are listed as the contract has them.
import { devNull } from 'node:os';
import { AREAS, PER_RESPONSE, REQUIREMENTS, type RequirementId } from '../../contract/requirements.ts';
import { bundledContract } from '../checks/documents.ts';
import type { SuiteConfig } from '../data/config.ts';
import { missingOf, needsText, type Prerequisite } from '../data/prerequisites.ts';
import { selects, type Selection } from '../data/selection.ts';
import { collectChecks } from './vitest.ts';

export interface ListInput {
  /** --base-url; none: the embedded reference, which provisions every key (suite/run/target.ts). */
  baseUrl?: string;
  secondKey?: string;
  rateLimitKey?: string;
  /** --rate-limit-plan, when named. */
  rateLimitPlan?: string;
  originKey?: string;
  allowedOrigin?: string;
  allowBillable: boolean;
  generated: number;
  /** --model-commands (0: the model area registers no check). */
  modelCommands?: number;
  timeoutMs: number;
  selection?: Selection;
}

export interface ListedCheck { area: string; title: string; requirementIds: RequirementId[]; notRun?: string }

export interface Listing {
  target: string;
  wouldRun: ListedCheck[];
  wouldNotRun: ListedCheck[];
  /** Requirements left out by --only. */
  notSelected: RequirementId[];
}

export async function listChecks(input: ListInput): Promise<Listing> {
  const embedded = !input.baseUrl;
  const contract = bundledContract();
  const areas = input.selection?.areas ?? [...AREAS];
  const config: SuiteConfig = {
    runId: 'list', areas, only: input.selection, baseUrl: input.baseUrl ?? 'http://embedded.invalid', apiKey: '',
    secondKey: embedded ? 'provisioned' : input.secondKey, rateLimitKey: embedded ? 'provisioned' : input.rateLimitKey,
    originKey: embedded ? 'provisioned' : input.originKey, allowedOrigin: embedded ? 'https://provisioned.invalid' : input.allowedOrigin,
    allowBillable: embedded || input.allowBillable, plan: 'free', planNamed: embedded || input.rateLimitPlan !== undefined, rateWindowMs: 60_000, paceRpm: 0, timeoutMs: input.timeoutMs,
    generated: input.generated, seed: 0, modelCommands: input.modelCommands ?? 1, maxBodyBytes: 2 ** 20,
    // Nothing is run, and should anything try to send, the run is already over: its deadline is past.
    ledgerFile: devNull, stopFile: devNull, deadlineAt: 0,
    servedDocument: contract, bundledDocument: contract,
  };
  const listing: Listing = { target: input.baseUrl ?? 'the embedded reference', wouldRun: [], wouldNotRun: [], notSelected: [] };
  for (const test of await collectChecks(config, areas)) {
    const meta = test.meta();
    const area = test.module.moduleId.replace(/^.*\//, '').replace(/\.test\.ts$/, '');
    const missing = missingOf(config, (meta.needs ?? []) as Prerequisite[]);
    const notRun = missing.length ? needsText(missing) : area === 'generated' && !input.generated ? 'needs --generated above 0' : undefined;
    const entry: ListedCheck = { area, title: test.name, requirementIds: meta.requirementIds ?? [], ...(notRun ? { notRun } : {}) };
    (notRun ? listing.wouldNotRun : listing.wouldRun).push(entry);
  }
  listing.notSelected = REQUIREMENTS.filter((q) => !PER_RESPONSE.includes(q.id) && !selects(input.selection, [q.id])).map((q) => q.id);
  return listing;
}

export function renderListing(l: Listing): string {
  const line = (c: ListedCheck) => `    ${c.area.padEnd(12)} [${c.requirementIds.join(', ')}] ${c.title}`;
  const ids = (list: ListedCheck[]) => new Set(list.flatMap((c) => c.requirementIds)).size;
  const out = [
    `What a run against ${l.target} would check (--list: nothing was sent; the served document is not read, the bundled contract stands in for it)`,
    '',
    `Would run: ${l.wouldRun.length} checks of ${ids(l.wouldRun)} requirements`,
    ...l.wouldRun.map(line),
  ];
  const groups = new Map<string, ListedCheck[]>();
  for (const c of l.wouldNotRun) groups.set(c.notRun!, [...(groups.get(c.notRun!) ?? []), c]);
  if (groups.size) {
    out.push('', `Would not run: ${l.wouldNotRun.length} checks, by what would enable them`);
    for (const [why, list] of groups) out.push(`  ${why} (${list.length}):`, ...list.map(line));
  }
  if (l.notSelected.length) out.push('', `Not selected (--only): ${l.notSelected.length} requirements`, `    ${l.notSelected.join(', ')}`);
  out.push('', `Checked on every response of what runs: ${PER_RESPONSE.join(', ')}`);
  return out.join('\n');
}
