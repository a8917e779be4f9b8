// What a tenant may hold (issue 26): SPEC.md leaves "numbers of worlds/entities per tenant" open, so
// these are the reference's choice. Usage is counted per tenant; the limits applied to a request are
// those of the key that makes it: its plan's defaults below, each overridable in the key file
// (`"quotas": {"worlds": 50}`). A request over a quota gets 403 QUOTA_EXCEEDED and stores nothing.
import { Type } from 'typebox';
import type { Plan } from '../../contract/plans.ts';

export interface Quotas {
  /** Live (not soft-deleted) worlds of the tenant. */
  worlds: number;
  /** Live standalone personas of the tenant. */
  personas: number;
  /** Entities (users and personas) in one world. */
  entitiesPerWorld: number;
  /**
   * Bytes of JSON text the tenant's records and event logs hold. Soft-deleted records are kept (they
   * can be restored), so they count; a world's event log keeps its newest LOG_KEEP_BYTES.
   */
  storedBytes: number;
}

const MiB = 1024 * 1024;

/**
 * Defaults per plan: generous enough that the conformance suite, its self-test and the load tiers
 * never meet them, small enough that one tenant cannot take the machine (issue 26 measured 3 GB in
 * 50 s from one enterprise key). The memory store holds about two to three times the JSON size in heap.
 */
export const PLAN_QUOTAS: Readonly<Record<Plan, Readonly<Quotas>>> = {
  free: { worlds: 1_000, personas: 1_000, entitiesPerWorld: 500, storedBytes: 64 * MiB },
  starter: { worlds: 5_000, personas: 5_000, entitiesPerWorld: 500, storedBytes: 128 * MiB },
  pro: { worlds: 10_000, personas: 10_000, entitiesPerWorld: 500, storedBytes: 256 * MiB },
  enterprise: { worlds: 10_000, personas: 10_000, entitiesPerWorld: 500, storedBytes: 512 * MiB },
};

/** The `quotas` member of a key record: any of the four, each a whole number ≥ 0 (0 forbids creating any). */
export const QuotasSchema = Type.Object(
  {
    worlds: Type.Optional(Type.Integer({ minimum: 0 })),
    personas: Type.Optional(Type.Integer({ minimum: 0 })),
    entitiesPerWorld: Type.Optional(Type.Integer({ minimum: 0 })),
    storedBytes: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

export const QUOTA_NAMES = ['worlds', 'personas', 'entitiesPerWorld', 'storedBytes'] as const;

/** The quotas a key's requests are held to: its plan's, with the key's own over them. */
export function quotasOf(record: { plan: Plan; quotas?: Partial<Quotas> }): Quotas {
  return { ...PLAN_QUOTAS[record.plan], ...record.quotas };
}
