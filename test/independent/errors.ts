// Every client mistake becomes an ApiError, answered in the error envelope; nothing thrown for bad
// input reaches the 500 path.
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

export const invalid = (message: string) => new ApiError(400, 'VALIDATION_ERROR', message);

type Json = Record<string, unknown>;

export const isObject = (x: unknown): x is Json => !!x && typeof x === 'object' && !Array.isArray(x);
const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Small typed readers of a request body: each refuses a present member of the wrong type. */
export const read = {
  object(body: unknown, where = 'body'): Json {
    if (!isObject(body)) throw invalid(`${where} must be a JSON object`);
    return body;
  },
  string(o: Json, key: string, required = false, where = key): string | undefined {
    const v = o[key];
    if (v === undefined) { if (required) throw invalid(`${where} is required`); return undefined; }
    if (typeof v !== 'string') throw invalid(`${where} must be a string`);
    return v;
  },
  name(o: Json, key: string, required = false, where = key): string | undefined {
    const v = read.string(o, key, required, where);
    if (v !== undefined && (v.length === 0 || v.length > 200)) throw invalid(`${where} must be 1 to 200 characters`);
    return v;
  },
  number(o: Json, key: string, required = false, where = key): number | undefined {
    const v = o[key];
    if (v === undefined) { if (required) throw invalid(`${where} is required`); return undefined; }
    if (!finite(v)) throw invalid(`${where} must be a finite number`);
    return v;
  },
  boolean(o: Json, key: string, where = key): boolean | undefined {
    const v = o[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') throw invalid(`${where} must be a boolean`);
    return v;
  },
  obj(o: Json, key: string, required = false, where = key): Json | undefined {
    const v = o[key];
    if (v === undefined) { if (required) throw invalid(`${where} is required`); return undefined; }
    if (!isObject(v)) throw invalid(`${where} must be an object`);
    return v;
  },
  array(o: Json, key: string, required = false, where = key): unknown[] | undefined {
    const v = o[key];
    if (v === undefined) { if (required) throw invalid(`${where} is required`); return undefined; }
    if (!Array.isArray(v)) throw invalid(`${where} must be an array`);
    return v;
  },
  strings(o: Json, key: string, where = key): string[] | undefined {
    const v = read.array(o, key, false, where);
    if (v && !v.every((s) => typeof s === 'string')) throw invalid(`${where} must be an array of strings`);
    return v as string[] | undefined;
  },
  /** A V/A/D object, each member optional (unless `full`) and within [-1, 1]. */
  vad(o: Json, key: string, full = false, where = key): { V?: number; A?: number; D?: number } | undefined {
    const v = read.obj(o, key, false, where);
    if (!v) return undefined;
    for (const k of ['V', 'A', 'D']) {
      const n = read.number(v, k, full, `${where}.${k}`);
      if (n !== undefined && (n < -1 || n > 1)) throw invalid(`${where}.${k} must be within [-1, 1]`);
    }
    return v as { V?: number; A?: number; D?: number };
  },
  numberMap(o: Json, key: string, where = key): Record<string, number> | undefined {
    const v = read.obj(o, key, false, where);
    if (v) for (const k of Object.keys(v)) read.number(v, k, true, `${where}.${k}`);
    return v as Record<string, number> | undefined;
  },
};
