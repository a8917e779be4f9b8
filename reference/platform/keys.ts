// API keys: the record format, the key file loader and the in-memory registry.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { Type } from 'typebox';

import { PLAN_RPM, PLANS, type Plan } from '../../contract/plans.ts';
import { QuotasSchema, type Quotas } from './quotas.ts';

export { PLAN_RPM, PLANS, type Plan };

export interface KeyRecord {
  key: string;
  tenantId: string;
  plan: Plan;
  /** Required for enterprise; ignored for the other plans (their rpm is PLAN_RPM). */
  rpm?: number;
  /** Browser origins allowed to use the key; absent or empty means any origin. Stored normalised. */
  origins?: string[];
  /** What the tenant may hold when it uses this key, over the plan's defaults (quotas.ts). */
  quotas?: Partial<Quotas>;
}

const KEY_PATTERN = '^mk_(live|test)_[!-~]+$'; // the prefix, then at least one printable non-space ASCII char

export const KeyRecordSchema = Type.Object(
  {
    key: Type.String({ pattern: KEY_PATTERN }),
    tenantId: Type.String({ minLength: 1 }),
    plan: Type.Enum([...PLANS]),
    rpm: Type.Optional(Type.Integer({ minimum: 1 })),
    origins: Type.Optional(Type.Array(Type.String())),
    quotas: Type.Optional(QuotasSchema),
  },
  // Closed, so a typo such as "orgins" is an error rather than a silently unrestricted key.
  { additionalProperties: false },
);

const ajv = new Ajv({ allErrors: false, strict: true });
const validateRecord = ajv.compile(KeyRecordSchema);

/** `/origins/0` → `origins[0]`: how an operator reads the key file. */
function memberName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

function describeAjvError(error: ErrorObject): string {
  const member = memberName(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${params.missingProperty} is required`;
    case 'additionalProperties':
      return member === 'quotas'
        ? `unknown member "quotas.${params.additionalProperty}" (allowed: worlds, personas, entitiesPerWorld, storedBytes)`
        : `unknown member "${params.additionalProperty}" (allowed: key, tenantId, plan, rpm, origins, quotas)`;
    case 'enum':
      return `${member} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'pattern':
      // Never print the key itself: the message ends up in logs.
      return `${member} must start with mk_live_ or mk_test_ followed by printable characters without spaces`;
    default:
      return member === '' ? `entry ${error.message}` : `${member} ${error.message}`;
  }
}

/** Parses an allowlist origin and returns its canonical form (what browsers send), or undefined. */
export function normaliseOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return undefined;
  }
  return url.origin;
}

/**
 * Validates one record and returns a normalised copy, or throws a message without the key in it.
 * Shared by the file loader and KeyRegistry.add so both enforce the same rules.
 */
export function validateKeyRecord(value: unknown): KeyRecord {
  if (!validateRecord(value)) {
    throw new Error(describeAjvError(validateRecord.errors![0]));
  }
  const record = value as KeyRecord;
  if (record.plan === 'enterprise' && record.rpm === undefined) {
    throw new Error('rpm is required for plan enterprise');
  }
  const copy: KeyRecord = { key: record.key, tenantId: record.tenantId, plan: record.plan };
  if (record.rpm !== undefined) copy.rpm = record.rpm;
  if (record.quotas !== undefined) copy.quotas = { ...record.quotas };
  if (record.origins !== undefined) {
    copy.origins = record.origins.map((origin, i) => {
      const canonical = normaliseOrigin(origin);
      if (canonical === undefined) {
        throw new Error(
          `origins[${i}] ${JSON.stringify(origin)} is not an origin (expected http(s)://host[:port], no path)`,
        );
      }
      return canonical;
    });
  }
  return copy;
}

/** Reads a JSON array of key records; every problem is one message naming the file and the entry (1-based). */
export function loadKeyFile(path: string): KeyRecord[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new Error(`${path}: cannot read the key file (${code})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path}: not valid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(data)) {
    throw new Error(`${path}: must be a JSON array of key records`);
  }
  const seen = new Map<string, number>();
  return data.map((entry: unknown, index) => {
    const n = index + 1;
    let record: KeyRecord;
    try {
      record = validateKeyRecord(entry);
    } catch (err) {
      throw new Error(`${path}: entry ${n}: ${(err as Error).message}`);
    }
    const first = seen.get(record.key);
    if (first !== undefined) {
      throw new Error(`${path}: entry ${n}: duplicate key (same key as entry ${first})`);
    }
    seen.set(record.key, n);
    return record;
  });
}

// Keys are looked up by their SHA-256 so the lookup's timing says nothing about how much of a guess matched.
function digest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export class KeyRegistry {
  readonly #byDigest = new Map<string, KeyRecord>();

  constructor(records: Iterable<KeyRecord> = []) {
    for (const record of records) this.add(record);
  }

  /** Validates and adds a record; throws on an invalid record or a key already present. */
  add(record: KeyRecord): void {
    const valid = validateKeyRecord(record);
    const id = digest(valid.key);
    const existing = this.#byDigest.get(id);
    if (existing !== undefined) {
      throw new Error(`duplicate key (already registered for tenant ${JSON.stringify(existing.tenantId)})`);
    }
    this.#byDigest.set(id, valid);
  }

  lookup(key: string): KeyRecord | undefined {
    return this.#byDigest.get(digest(key));
  }

  /** The key's requests-per-minute budget: the plan's, or the record's own for enterprise. */
  rpmOf(record: KeyRecord): number {
    if (record.plan === 'enterprise') {
      if (record.rpm === undefined) throw new Error('enterprise key without rpm'); // add() prevents this
      return record.rpm;
    }
    return PLAN_RPM[record.plan];
  }

  all(): KeyRecord[] {
    return [...this.#byDigest.values()];
  }

  get size(): number {
    return this.#byDigest.size;
  }
}
