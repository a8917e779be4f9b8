// What `--only` selects: whole areas (`errors`) and single requirements (`PROG-3`), mixed freely.
// A requirement runs its area's scenario file with only the checks that name it; the checks made on
// every response (ENV-*, CONTRACT-*) ride along with whatever runs, so they cannot be selected alone:
// named beside an area or another requirement, they are required of the run (--require-verified then
// fails one that saw no answer of its kind); not named, what they did not verify says nothing of it.
import { AREAS, PER_RESPONSE, REQUIREMENTS, isRequirementId, requirement, type RequirementId, type SelectableArea } from '../../contract/requirements.ts';
import { UsageError } from './errors.ts';

/** What the scenario workers need to register only the selected checks (SuiteConfig.only). */
export interface CheckFilter {
  /** Areas named whole: every check of theirs runs. */
  wholeAreas: SelectableArea[];
  /** Requirements named one by one: in the other areas, only the checks naming one of them run. */
  requirementIds: RequirementId[];
}

export interface Selection extends CheckFilter {
  /** The scenario files to run, in the run's order: the areas named and those of the requirements named. */
  areas: SelectableArea[];
}

const isArea = (x: string): x is SelectableArea => (AREAS as readonly string[]).includes(x);

/** The selection of `--only` values; undefined when none were given (everything runs). */
export function selectionOf(only: readonly string[]): Selection | undefined {
  if (!only.length) return undefined;
  const wholeAreas: SelectableArea[] = [];
  const requirementIds: RequirementId[] = [];
  for (const raw of only) {
    const id = raw.toUpperCase();
    if (isArea(raw)) wholeAreas.push(raw);
    else if (isRequirementId(id)) requirementIds.push(id);
    else throw new UsageError(`--only: '${raw}' is neither an area (${AREAS.join(', ')}) nor a requirement id (${REQUIREMENTS[0].id}, …: --list shows them)`);
  }
  const alone = requirementIds.filter((id) => PER_RESPONSE.includes(id));
  if (alone.length && !wholeAreas.length && alone.length === requirementIds.length) {
    throw new UsageError(`--only ${alone.join(', ')}: checked on every response of whatever runs; name an area or another requirement with ${alone.length > 1 ? 'them' : 'it'}`);
  }
  const named = new Set<string>([...wholeAreas, ...requirementIds.map((id) => requirement(id).area)]);
  return { areas: AREAS.filter((a) => named.has(a)), wholeAreas, requirementIds };
}

/** Whether a check naming `ids` runs under the filter (no filter: every check runs). */
export function selects(filter: CheckFilter | undefined, ids: readonly RequirementId[]): boolean {
  if (!filter) return true;
  return ids.some((id) => filter.requirementIds.includes(id) || (filter.wholeAreas as string[]).includes(requirement(id).area));
}
