// Every named schema of the contract: the resources, the shared results, and the generated Input
// variants that request bodies reference. Fastify registers them (addSchema) and the OpenAPI
// document lists them under components.schemas.
import { RESOURCES } from './resources.ts';
import { OPERATIONS, SHARED_COMPONENTS } from './operations.ts';
import { inputComponent, inputId } from './input.ts';
import { idOf, type Named } from './kit.ts';

function refsIn(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else refsIn(v, out);
    }
  }
  return out;
}

function build(): Named[] {
  const base: Named[] = [...RESOURCES, ...SHARED_COMPONENTS] as unknown as Named[];
  const byId = new Map(base.map((s) => [idOf(s), s]));
  const inputs = new Map<string, Named>();
  // Input variants are generated on demand: those the operations reference, then those they reference.
  const pending = [...refsIn(OPERATIONS.map((o) => [o.body, o.query, o.params]), new Set())].filter((r) => r.endsWith('Input'));
  while (pending.length) {
    const id = pending.pop()!;
    if (inputs.has(id)) continue;
    const source = byId.get(id.slice(0, -'Input'.length));
    if (!source) throw new Error(`contract: ${id} references no resource`);
    const component = inputComponent(source);
    inputs.set(id, component);
    for (const r of refsIn(component, new Set())) if (!inputs.has(r)) pending.push(inputId(r));
  }
  return [...base, ...[...inputs.values()].sort((a, b) => idOf(a).localeCompare(idOf(b)))];
}

export const COMPONENTS: readonly Named[] = build();
