// The world side of the engine: what the HTTP layer calls. Everything here is synchronous and
// deterministic given the stored documents and the inputs.
export * from './model.ts';
export { newWorld, addEntity, removeEntity, type CreateWorldInput } from './create.ts';
export { normalizeDefinition, mergeDefinition } from './defaults.ts';
export { chat, dispatchEvent, advance, advancing, interact, type AdvanceOutcome } from './simulate.ts';
export { query, context, worldPersona, worldPersonas } from './views.ts';
export { mutate, upsertRelationship } from './mutate.ts';
export { exportWorld, importWorld, exportPersona, importPersona } from './snapshot.ts';
export { allActions, actionOrFail, createAction, deleteAction } from './actions.ts';
export { syncProgression } from './progression.ts';
export * from './persona.ts';
