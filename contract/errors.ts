// Every error code the interface answers with, and its HTTP status: the single table from which the
// OpenAPI responses, the reference's error handler and the docs are derived.
export interface ErrorCodeInfo { status: number; description: string; source: 'spec' | 'reference' }

export const ERROR_CODES = {
  UNAUTHORIZED: { status: 401, description: 'The X-API-Key header is missing or the key is not recognised.', source: 'spec' },
  RATE_LIMITED: { status: 429, description: 'Per-key rate limit exceeded; Retry-After gives the seconds to wait.', source: 'spec' },
  WORLD_NOT_FOUND: { status: 404, description: 'The world id does not exist or is not accessible.', source: 'spec' },
  ENTITY_NOT_FOUND: { status: 404, description: 'The named entity does not exist in the world.', source: 'spec' },
  VALIDATION_ERROR: { status: 400, description: 'The request failed schema validation, or its JSON body is malformed, empty or uses forbidden keys.', source: 'spec' },
  PERSONA_NOT_FOUND: { status: 404, description: 'The persona does not exist (status chosen by the reference).', source: 'spec' },
  QUOTA_EXCEEDED: { status: 403, description: 'The tenant would hold more than its quota allows (worlds, personas, entities in a world, stored bytes), or a world would grow past what a snapshot import accepts; nothing was stored. The message names the quota, the limit and the usage.', source: 'reference' },
  ORIGIN_NOT_ALLOWED: { status: 403, description: 'The key has an origin allowlist and the request Origin is not on it (or is absent).', source: 'reference' },
  ACTION_NOT_FOUND: { status: 404, description: 'The action does not exist in the world.', source: 'reference' },
  ACTION_NOT_DELETABLE: { status: 409, description: 'Default actions cannot be deleted.', source: 'reference' },
  RELATIONSHIP_NOT_FOUND: { status: 404, description: 'The relationship does not exist in the world.', source: 'reference' },
  ENTITY_EXISTS: { status: 409, description: 'An entity with that name already exists in the world.', source: 'reference' },
  NOT_DELETED: { status: 409, description: 'Restore of a world or persona that is not deleted.', source: 'reference' },
  ROUTE_NOT_FOUND: { status: 404, description: 'No operation at that path.', source: 'reference' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path exists with other methods (see Allow).', source: 'reference' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The body exceeds the size limit.', source: 'reference' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The body is not application/json.', source: 'reference' },
  // Catch-all for framework-level client errors without a dedicated code; the response keeps the
  // original 4xx status, 400 is only the typical one.
  BAD_REQUEST: { status: 400, description: 'Another client error (for example a malformed URL or a body that does not match Content-Length).', source: 'reference' },
  INTERNAL_ERROR: { status: 500, description: 'A fault of the server, never a client mistake.', source: 'reference' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;
