// The bodies of the operations SPEC.md shows only by path that the model's commands send
// (model/world-parts.ts), shaped by the served document: each the document's smallest valid body with
// the members the command needs, or undefined when the document names no member for one of them.
import type { End, PartBodies } from '../../model/world-parts.ts';
import { role, servedBodyProblem, servedBodyWith, unusable, type Role } from '../../suite/bodies/served.ts';
import { ACTOR_NAMES, PERSONA_NAMES, directed, mentions } from './models.ts';

type Json = Record<string, any>;

/** A body made once from the served document, then filled per request: each role's value set where the document put its member. */
function template(operationId: string, roles: readonly Role[]): ((values: Record<string, unknown>) => Json) | undefined {
  const made = servedBodyWith(operationId, roles);
  if (unusable(operationId, made)) return undefined;
  return (values) => {
    const body = structuredClone(made.body);
    for (const [name, value] of Object.entries(values)) {
      const path = made.members[name].split('.');
      let node = body;
      for (const k of path.slice(0, -1)) node = node[k];
      node[path[path.length - 1]] = value;
    }
    return body;
  };
}

const PERSONA_NAME = role('the persona name', ['name', 'entityName', 'personaName', 'key'], () => 'cf-a');
const CONFIG = role('a persona config', ['config', 'personaConfig'], () => ({ identity: { name: 'Cf' } }));
const ACTION_NAME = role('the action name', ['name', 'actionName', 'title', 'label', 'key', 'id'], () => 'cf-a');
const ACTOR = role('the actor', ACTOR_NAMES, () => 'cf-a');
const PERSONA = role('the persona', PERSONA_NAMES, () => 'cf-b');
const TRUST = role('the trust', ['trust'], () => 0.5);
/** A jump in the unit the member names, the same length whichever it is (600 s, 10 min; an hour or a day where the unit is that long). */
const UNITS: Record<string, number> = { seconds: 600, secs: 600, minutes: 10, mins: 10, hours: 1, days: 1 };
const JUMP = role('the time to jump', ['seconds', 'secs', 'minutes', 'mins', 'hours', 'days', 'duration', 'amount', 'delta', 'by'], (m) => UNITS[m.toLowerCase()] ?? 600);

export function partBodies(): PartBodies {
  const withConfig = template('addWorldPersona', [PERSONA_NAME, CONFIG]);
  const plain = withConfig ? undefined : template('addWorldPersona', [PERSONA_NAME]);
  const action = template('createAction', [ACTION_NAME]);
  const relationship = servedBodyWith('upsertRelationship', [ACTOR, PERSONA, TRUST]);
  const upsert = template('upsertRelationship', [ACTOR, PERSONA, TRUST]);
  // Where the member names an id (sourceId, targetId…), the entity's id; else its name.
  const endIn = (member: string | undefined, e: End) => (member && /id$/i.test(member.split('.').pop()!) && e.id !== undefined ? e.id : e.name);
  const jump = servedBodyWith('timeJump', [JUMP]);
  const jumpBody = template('timeJump', [JUMP]);
  const base = jump.members[JUMP.role] ? (UNITS[jump.members[JUMP.role].split('.').pop()!.toLowerCase()] ?? 600) : 600;
  return {
    addPersona: withConfig ? (name, displayName) => withConfig({ [PERSONA_NAME.role]: name, [CONFIG.role]: { identity: { name: displayName } } })
      : plain ? (name) => plain({ [PERSONA_NAME.role]: name }) : undefined,
    addPersonaWithConfig: !!withConfig,
    createAction: action ? (name) => action({ [ACTION_NAME.role]: name }) : undefined,
    upsertRelationship: upsert ? (source, target, trust) => upsert({
      [ACTOR.role]: endIn(relationship.members[ACTOR.role], source), [PERSONA.role]: endIn(relationship.members[PERSONA.role], target), [TRUST.role]: trust,
    }) : undefined,
    timeJump: jumpBody ? (times) => ({ body: jumpBody({ [JUMP.role]: base * times }), amount: base * times }) : undefined,
    problem: servedBodyProblem,
    mentions, directed,
  };
}
