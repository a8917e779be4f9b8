// The helpers legal variants are written with, beside those of ../hooks.ts (re-exported here with the
// proxy's, so that a variant file imports from one place).
export * from '../hooks.ts';
export { json, type FaultContext, type FaultHooks, type FaultRequest, type FaultResponse } from '../proxy.ts';
import { type Json, isObject, operationIn, responseSchemaIn } from '../hooks.ts';
import type { FaultContext } from '../proxy.ts';

/** A Map kept in the proxy's memory under `name`. */
export const memory = <K, V>(ctx: FaultContext, name: string): Map<K, V> => {
  if (!ctx.state.has(name)) ctx.state.set(name, new Map<K, V>());
  return ctx.state.get(name) as Map<K, V>;
};
/** Every 2xx success schema of the operations named, to change in place. */
export const successSchemas = (doc: Json, operationIds: string[]) =>
  operationIds.map((id) => operationIn(doc, id)).flatMap((op) => Object.keys(op?.responses ?? {}).filter((s) => s.startsWith('2')).map((s) => responseSchemaIn(op, s))).filter(isObject);
