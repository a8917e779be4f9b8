// The cap on an answer's size, in one place light enough for the command line to read before a run
// loads its HTTP layer (suite/http/transport.ts applies it).

/** Default --max-body-mb: a run's largest answer from the reference, its document, is 0.26 MB; a page of 100 large worlds may weigh several. */
export const DEFAULT_MAX_BODY_MB = 8;

export const mbToBytes = (mb: number) => Math.round(mb * 1024 * 1024);

/** A size as the messages show it: megabytes, at most two decimals. */
export const inMb = (bytes: number) => `${+(bytes / 1024 / 1024).toFixed(2)} MB`;
