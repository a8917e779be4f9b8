// The persistence contract shared by the in-memory and SQLite stores.
// It is synchronous on purpose: Fastify handlers run on one Node thread, so a
// read-modify-write with no `await` in between is atomic without locks.

export type Kind = 'world' | 'persona';

export interface StoredDoc<T> {
  kind: Kind;
  tenantId: string;
  id: string;
  /** Assigned by the store at insert and never changed: the listing order. */
  seq: number;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
  body: T;
  /** Size of the body as stored: bytes of its JSON text in UTF-8 (what counts toward a tenant's stored bytes). */
  bytes: number;
}

/** What a tenant holds: live worlds and personas, and the bytes of all its documents (soft-deleted ones are kept, so they count) and logs. */
export interface Usage {
  worlds: number;
  personas: number;
  bytes: number;
}

export interface AppendOpts {
  /**
   * Retention: after the append, the oldest entries of this owner's log are dropped until the log
   * holds at most this many bytes (the newest entry always stays). Default: keep everything.
   */
  keepBytes?: number;
}

export interface LogEntry<T> {
  seq: number;
  body: T;
}

export interface PageOpts {
  /** Exclusive lower bound: the `seq` of the last item of the previous page. */
  afterSeq?: number;
  /** Page size, a positive integer. */
  limit: number;
}

export interface Page<I> {
  items: I[];
  /** Whether another page exists after the last item. */
  more: boolean;
}

/**
 * Bodies must be JSON values: both implementations store them as JSON text, so
 * `undefined` members vanish and a Date comes back as a string. Every body
 * returned is a fresh copy; mutating it never changes the stored document.
 */
export interface Store {
  /** Inserts a new live document; seq is assigned by the store, strictly increasing across the store (stable listing order). Throws DuplicateIdError if (kind, tenantId, id) exists, even soft-deleted. */
  insert<T>(kind: Kind, tenantId: string, id: string, createdAt: number, body: T): StoredDoc<T>;
  /** Live document, or undefined. Soft-deleted ones only with includeDeleted. Another tenant's document is undefined. */
  get<T>(kind: Kind, tenantId: string, id: string, opts?: { includeDeleted?: boolean }): StoredDoc<T> | undefined;
  /**
   * Like get (live documents only), for reads that change nothing: the body is shared between calls,
   * so it costs no copy, and must not be changed. Its array items are always frozen; with freeze
   * 'deep' (tests) all of it is, so a read path that changes it throws.
   */
  read<T>(kind: Kind, tenantId: string, id: string): StoredDoc<Readonly<T>> | undefined;
  /** Replaces the body of a live document and sets updatedAt; returns false if it is not live. */
  update<T>(kind: Kind, tenantId: string, id: string, body: T, updatedAt: number): boolean;
  /**
   * Read-modify-write of a live document, atomically: fn gets a writable draft and whatever it leaves
   * there becomes the body, with updatedAt; if fn throws nothing changes. Returns undefined (fn not
   * called) if the document is not live. Cheaper than get + update: the draft copies only containers
   * (see thaw in shared.ts), so fn must replace an array item rather than modify it. After fn returns
   * the draft is the committed body: nothing may change it, nor the parts of it fn's result shares.
   */
  edit<T, R>(kind: Kind, tenantId: string, id: string, updatedAt: number, fn: (draft: T) => R): { result: R; bytes: number; previousBytes: number } | undefined;
  /** Sets deletedAt and updatedAt to `at`; returns false if the document is not live. */
  softDelete(kind: Kind, tenantId: string, id: string, at: number): boolean;
  /** Clears deletedAt and sets updatedAt to `at`; the document keeps its seq, hence its place in listings. Returns false if it is not soft-deleted. */
  restore(kind: Kind, tenantId: string, id: string, at: number): boolean;
  /** Live documents of a tenant in seq order, strictly after afterSeq; `more` says whether another page exists. */
  list<T>(kind: Kind, tenantId: string, opts: PageOpts): Page<StoredDoc<T>>;
  /** Append-only log attached to a document (e.g. a world's event log); seq per store, increasing. The owner's existence is the caller's business. */
  appendLog<T>(kind: Kind, tenantId: string, ownerId: string, entries: T[], opts?: AppendOpts): LogEntry<T>[];
  listLog<T>(kind: Kind, tenantId: string, ownerId: string, opts: PageOpts): Page<LogEntry<T>>;
  /** The tenant's usage (quotas are checked against it); every write keeps it exact, rolled back with it. */
  usage(tenantId: string): Usage;
  /** Runs fn atomically: if fn throws, every write it made is undone and the error rethrown. Nests (an inner failure caught by the outer fn undoes only the inner writes). */
  transaction<R>(fn: () => R): R;
  close(): void;
}

/** Thrown by insert when (kind, tenantId, id) is taken; handlers map it to 409. */
export class DuplicateIdError extends Error {
  constructor(readonly kind: Kind, readonly tenantId: string, readonly id: string) {
    super(`${kind} ${JSON.stringify(id)} already exists in tenant ${JSON.stringify(tenantId)}`);
    this.name = 'DuplicateIdError';
  }
}
