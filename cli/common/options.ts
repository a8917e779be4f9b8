// One typed configuration per command: every option has a flag, an environment twin and a
// description; precedence is default < config file < environment < flag. The effective
// configuration is printed (keys redacted) and stored in the results.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { UsageError } from './errors.ts';
import { redactKey } from '../../suite/data/redact.ts';

export type OptionType = 'string' | 'boolean' | 'integer' | 'number' | 'list';
export interface OptionSpec {
  /** Flag name without dashes, e.g. 'base-url'; the env twin is PREFIX_BASE_URL. */
  name: string;
  type: OptionType;
  description: string;
  default?: string | number | boolean | string[];
  /** Allowed values for a string or list option. */
  choices?: readonly string[];
  /** Redact the value wherever the configuration is shown. */
  secret?: boolean;
  /** Placeholder shown in --help, e.g. URL. */
  placeholder?: string;
}

export type Values = Record<string, string | number | boolean | string[] | undefined>;

/** The value an option holds once parsed: typed from its spec (choices become a union of literals). */
type ValueOf<S> = S extends { type: 'boolean' } ? boolean
  : S extends { type: 'integer' | 'number' } ? number
  : S extends { type: 'list'; choices: readonly (infer C)[] } ? C[]
  : S extends { type: 'list' } ? string[]
  : S extends { choices: readonly (infer C)[] } ? C
  : string;
/** Options with a default (and booleans) are always there; the others may be absent. */
type Present<S> = S extends { default: unknown } | { type: 'boolean' } ? ValueOf<S> : ValueOf<S> | undefined;
/** The parsed options of a spec table declared `as const`: one typed member per option. */
export type ValuesOf<S extends readonly OptionSpec[]> = { [K in S[number] as K['name']]: Present<K> } & { help: boolean };

export const envName = (prefix: string, name: string) => `${prefix}_${name.toUpperCase().replace(/-/g, '_')}`;

function convert(spec: OptionSpec, raw: unknown, where: string): string | number | boolean | string[] {
  const fail = (why: string): never => { throw new UsageError(`${where}: ${why}`); };
  switch (spec.type) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (/^(1|true|yes)$/i.test(String(raw))) return true;
      if (/^(0|false|no|)$/i.test(String(raw))) return false;
      return fail(`expected true or false, got '${raw}'`);
    case 'integer': {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0) fail(`expected a whole number ≥ 0, got '${raw}'`);
      return n;
    }
    case 'number': {
      // A decimal such as a share (0.8) or a bound in ms (2.5); Number('') is 0, so refuse blanks.
      const n = Number(raw);
      if (String(raw).trim() === '' || !Number.isFinite(n) || n < 0) fail(`expected a number ≥ 0, got '${raw}'`);
      return n;
    }
    case 'list': {
      const list = (Array.isArray(raw) ? raw : String(raw).split(',')).map((s) => String(s).trim()).filter(Boolean);
      for (const item of list) if (spec.choices && !spec.choices.includes(item)) fail(`'${item}' is not one of ${spec.choices.join(', ')}`);
      return list;
    }
    default: {
      const s = String(raw);
      if (spec.choices && !spec.choices.includes(s)) fail(`'${s}' is not one of ${spec.choices.join(', ')}`);
      return s;
    }
  }
}

/**
 * Parses argv and the environment against the specs. `configFlag` names an option holding a JSON
 * config file whose keys are option names.
 */
export function parseOptions<const S extends readonly OptionSpec[]>(specs: S, argv: string[], env: NodeJS.ProcessEnv, prefix: string, configFlag?: string): string extends S[number]['name'] ? Values : ValuesOf<S>;
export function parseOptions(specs: readonly OptionSpec[], argv: string[], env: NodeJS.ProcessEnv, prefix: string, configFlag?: string): Values {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: Object.fromEntries([...specs.map((s) => [s.name, { type: s.type === 'boolean' ? 'boolean' : 'string' }]), ['help', { type: 'boolean', short: 'h' }]]) as never,
      strict: true, allowPositionals: false,
    }).values as Record<string, string | boolean | undefined>;
  } catch (err) {
    const unknown = /^Unknown option '--?([^']+)'/.exec((err as Error).message)?.[1];
    const near = unknown === undefined ? undefined : nearest(unknown, specs.map((s) => s.name));
    throw new UsageError(`${(err as Error).message.split('\n')[0]}${near ? `: did you mean --${near}?` : ''} (see --help)`);
  }
  const values: Values = { help: parsed.help === true };
  for (const spec of specs) if (spec.default !== undefined) values[spec.name] = spec.default;
  const file = configFlag ? (parsed[configFlag] as string | undefined) ?? env[envName(prefix, configFlag)] : undefined;
  if (file) {
    let fromFile: Record<string, unknown>;
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new UsageError(`${file}: cannot read the config file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    for (const [key, raw] of Object.entries(fromFile)) {
      const spec = specs.find((s) => s.name === key);
      if (!spec) {
        const near = nearest(key, specs.map((s) => s.name));
        throw new UsageError(`${file}: unknown option '${key}'${near ? `: did you mean '${near}'?` : ''}`);
      }
      values[key] = convert(spec, raw, `${file}: ${key}`);
    }
  }
  for (const spec of specs) {
    const fromEnv = env[envName(prefix, spec.name)];
    if (fromEnv !== undefined && fromEnv !== '') values[spec.name] = convert(spec, fromEnv, envName(prefix, spec.name));
    if (parsed[spec.name] !== undefined) values[spec.name] = convert(spec, parsed[spec.name], `--${spec.name}`);
  }
  return values;
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i && j ? 0 : i + j)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The option a mistyped one most likely meant: a close spelling (a third of its letters at most), or the one it begins. */
export function nearest(typed: string, names: readonly string[]): string | undefined {
  const scored = names.map((name) => ({ name, edits: distance(typed.toLowerCase(), name) })).sort((a, b) => a.edits - b.edits);
  const best = scored[0];
  if (best && best.edits <= Math.max(1, Math.floor(typed.length / 3)) && scored[1]?.edits !== best.edits) return best.name;
  const prefixed = names.filter((name) => name.startsWith(typed.toLowerCase()));
  return typed.length >= 3 && prefixed.length === 1 ? prefixed[0] : undefined;
}

export function helpText(usage: string, about: string, specs: readonly OptionSpec[], prefix: string): string {
  const rows = specs.map((s) => {
    const flag = `--${s.name}${s.type === 'boolean' ? '' : ` ${s.placeholder ?? (s.type === 'integer' || s.type === 'number' ? 'N' : 'VALUE')}`}`;
    const extra = [s.choices ? `one of ${s.choices.join(', ')}` : '', s.default !== undefined && s.default !== false ? `default ${Array.isArray(s.default) ? s.default.join(',') || '(none)' : s.default}` : '']
      .filter(Boolean).join('; ');
    return `  ${flag.padEnd(30)} ${s.description}${extra ? ` (${extra})` : ''}\n  ${''.padEnd(30)} env ${envName(prefix, s.name)}`;
  });
  return `${usage}\n\n${about}\n\nOptions (flag, then its environment twin):\n${rows.join('\n')}\n  ${'-h, --help'.padEnd(30)} this help\n`;
}

/** The configuration as it may be shown or stored: secrets redacted. */
export function redacted(specs: readonly OptionSpec[], values: object): Values {
  const given = values as Values;
  const out: Values = {};
  for (const spec of specs) out[spec.name] = spec.secret && given[spec.name] ? redactKey(String(given[spec.name])) : given[spec.name];
  return out;
}
