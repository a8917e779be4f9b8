// The first sequence of every model run: a tour, the same at every seed, through every command and the
// finite choices a bug hides behind (each lookup table's every operation on every near kind, every list
// limit of interest, every event type choice and tick amount, the persona pages of 1 and 2 over three
// personas, a delete → restore of a world and of a persona with lookups on the soft-deleted and the
// restored record and every view after, the views after an import, the second instances). A bug on one
// route, near kind and state is then found at every seed; the random sequences after it (fc.commands)
// draw the combinations. A command that does not apply (its body not in the served document, no second
// key) does nothing, as in the random sequences.
import type { Cmd } from './commands.ts';
import {
  Context, CreateLenient, CreatePersona, CreateWorld, DeleteWorld, Dispatch, Lenient, ListWorlds, LOOKUPS, NearKey, PatchWorld,
  PersonaDelete, PersonaLookup, RestoreWorld, Snapshot, Tick, WorldLookupSweep,
} from './commands.ts';
import { Actions, Mutate, PART_LOOKUPS, Relationships, TimeJump, WorldPersona } from './world-parts-commands.ts';
import { Annotate, ForceResponse, ListPersonas, PatchPersona, PersonaOpLookup } from './personas.ts';
import { Chat } from './chat.ts';
import { Origins } from './origins.ts';
import { NEAR_KINDS } from './near.ts';
import { NameRoutes, PatchPhysics, PersonaRoutes, WorldPersonaRoutes, WorldRoutes } from './routes.ts';
import { PersonaLenient, WorldLenient } from './lenient.ts';

const ALL_LOOKUPS = [LOOKUPS, PART_LOOKUPS];

/** The tour: its first commands (a world with two triggers on one type, both fired; a persona) and the rest. */
export function tour(secondKey: boolean): [Cmd[], Cmd[]] {
  // The other tenant's world and persona (the main tenant's without a second key).
  const other = secondKey ? 'second' : 'main';
  const first: Cmd[] = [new CreateWorld('main', 'two-on-one-type', 2, 0), new CreatePersona('main'), new Dispatch(0, 0, 3), new Tick(0, [1])];
  const worlds: Cmd[] = [
    // #1, #2 (the other tenant's), #3: every trigger shape and physics; three worlds of one tenant for the cursor walks.
    new CreateWorld('main', 'two-types', 1, 1, 4), new CreateWorld(other, 'one', 3, 2, 4), new CreateWorld('main', 'two-on-one-type', 1, 0, 4),
    // Every limit of interest: none, 0, 1, 100, 101 (one page each), then 1, 2 and 3 along nextCursor.
    new ListWorlds('1', 3), new ListWorlds('2', 3, false), new ListWorlds('3', 2, false),
    new CreateLenient(), new Lenient(0, 'tickWorld'), new Lenient(0, 'dispatchEvent'), new WorldLenient(0),
    // Every event type choice (a trigger's type, near variants of it, another type), each followed by a near variant of a trigger's type: every near kind.
    new Dispatch(1, 0, 1, 0), new Dispatch(1, 3, 2, 1), new Dispatch(1, 9, 1, 2), new Dispatch(0, 5, 1, 3), new Dispatch(0, 6, 1, 4),
    new Dispatch(0, 7, 1, 5), new Dispatch(2, 8, 1, 6), new Dispatch(2, 0, 3), new Dispatch(3, 0, 2, 7),
    // Every tick amount, after the thresholds were reached.
    new Tick(0, [2, 1.5]), new Tick(1, [3.75, 0.5]), new Tick(2, [10, 0.25]), new Tick(3, [0.1, 1]),
    new PatchWorld(0), new PatchPhysics(0), new Context(0, 0), new NearKey(0),
    // Every world operation on every near kind and with the other tenant's key.
    new WorldLookupSweep(0, 0, ALL_LOOKUPS, NEAR_KINDS.length),
    // The parts: a batch of one and with a failing operation; two personas added, one removed; two actions,
    // one deleted; two targets of one source, both directions of a pair, an update, a delete, an import.
    new Mutate(0, 'one'), new Mutate(1, 'batch'), new WorldPersona(0, 2, true), new WorldPersona(1, 1, false),
    new Actions(0, 2, 'delete'), new Actions(1, 1, 'near'),
    new Relationships(0, 'none', [0, 1], 0), new Relationships(0, 'delete', [2, 3], 1), new Relationships(1, 'near', [2], 2),
    new Relationships(0, 'near', [1], 3), new Relationships(3, 'import', [0, 3], 4),
    new TimeJump(0, [1, 3]), new TimeJump(3, [3, 2]),
    // Every other world route on every near kind (the parts' {pid}, {aid}, {rid} known by now); the names bodies carry; a world persona's {pid}.
    new WorldRoutes(0), new NameRoutes(0), new WorldPersonaRoutes(0),
    // Imports, unchanged and with two spaces and two relationships of one source; the views after them, and commands after them.
    new Snapshot(0, 'none'), new Snapshot(3, 'added'), new Chat(3, 0, 2), new Chat(0, 1, 0, 1), new Chat(1, 0, 1),
    new Origins(0), new Origins(1),
    // A world with parts soft-deleted: its lookups; restored: every view (the snapshot's parts, its actions), its lookups, its context.
    new DeleteWorld(1), new WorldLookupSweep(1, 0, ALL_LOOKUPS), new WorldRoutes(1, ['deleteWorld', 'restoreWorld']), new RestoreWorld(1), new WorldLookupSweep(1, 3, ALL_LOOKUPS),
    new Actions(1, 1, 'none'), new Context(1, 1),
  ];
  const personas: Cmd[] = [
    // #1, #2 (the other tenant's), #3: three of one tenant for the pages of 1 and 2.
    new CreatePersona('main', 4), new CreatePersona(other, 4), new CreatePersona('main', 4), new ListPersonas(),
    new PatchPersona(0), new Annotate(0, 3), new ForceResponse(0, 2, 2),
    new PersonaLookup(2), new PersonaOpLookup(0, 0, NEAR_KINDS.length), new PersonaRoutes(0), new PersonaLenient(0),
    // A persona soft-deleted (a forced response pending): its lookups, the list; restored: every view, its lookups, its runtime.
    new ForceResponse(1, 1, 0), new PersonaDelete(1), new PersonaLookup(1), new PersonaOpLookup(1, 1), new ListPersonas(),
    new PersonaDelete(1), new PersonaLookup(1), new PersonaOpLookup(1, 4), new PatchPersona(1), new Annotate(1, 3), new ForceResponse(1, 2, 1),
    new PersonaDelete(3, true),
  ];
  // Deletes last: the other tenant's world and persona.
  return [first, [...worlds, ...personas, new DeleteWorld(2), new PersonaDelete(2)]];
}
