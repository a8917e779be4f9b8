// What the SQLite store checks before and after it opens a file, so that a damaged or inconsistent
// file is refused at start-up instead of served with data missing. SQLite itself opens most damage
// without a word: an empty file is a new database, a WAL it cannot read is ignored (with every commit
// in it), a WAL without its main file or a main file without its WAL just loses what the other held.
// Each check below names the file and says what to do; reference/store/README.md lists them.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';

/** Thrown for a file the store refuses to open; the message is one line for the operator. */
export class DamagedStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DamagedStoreError';
  }
}

const HEADER = Buffer.from('SQLite format 3\u0000', 'latin1');
const RESTORE = 'restore it from a backup';

function readBytes(file: string, position: number, length: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, position);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : undefined);

/**
 * Checks on the files alone, before SQLite touches them (opening would already change them: it
 * creates a missing file, and recovers or resets a WAL). Returns the WAL's size (undefined when there
 * is none) when the file may be opened.
 */
export function checkFilesBeforeOpen(file: string): number | undefined {
  const wal = `${file}-wal`;
  const mainSize = sizeOf(file);
  const walFound = sizeOf(wal);
  const walSize = walFound ?? 0;
  if (mainSize === undefined) {
    // A new database, unless a log of writes says there was one.
    if (walSize > 0) throw new DamagedStoreError(`${file} is missing but its write-ahead log ${wal} (${walSize} bytes) is there: the database was moved or deleted without its log; put ${file} back, or ${RESTORE} (delete ${wal} only to start an empty database)`);
    return walFound;
  }
  if (mainSize === 0) {
    // The reference never leaves an empty main file: it writes its schema on the first open.
    throw new DamagedStoreError(`${file} is empty (0 bytes)${walSize ? ` beside a write-ahead log of ${walSize} bytes` : ''}: it was truncated or never written by the reference; ${RESTORE}, or delete it${walSize ? ` and ${wal}` : ''} to start an empty database`);
  }
  const head = readBytes(file, 0, 100);
  if (head.length < 100 || !head.subarray(0, 16).equals(HEADER)) {
    throw new DamagedStoreError(`${file} is not a database (its first bytes are not the SQLite header): it is damaged or another kind of file; ${RESTORE}, or give --db a new file name`);
  }
  const rawPageSize = head.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) {
    throw new DamagedStoreError(`${file} has a damaged header (page size ${rawPageSize}): ${RESTORE}`);
  }
  // The page count in the header is valid when the change counter matches "version-valid-for".
  const pages = head.readUInt32BE(28);
  const headerValid = head.readUInt32BE(24) === head.readUInt32BE(92) && pages > 0;
  if (mainSize % pageSize !== 0 || (headerValid && mainSize < pages * pageSize)) {
    throw new DamagedStoreError(`${file} is truncated: ${mainSize} bytes where its header says ${headerValid ? pages * pageSize : `whole pages of ${pageSize}`}; ${RESTORE}`);
  }
  if (walSize > 0) checkWal(file, wal, walSize);
  return walFound;
}

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/**
 * SQLite reads a WAL up to its first frame that fails its checksum and silently drops the rest, which
 * is right after a crash (the torn tail was never acknowledged) and wrong when bytes in the middle were
 * damaged (every later commit is lost). A torn tail has nothing of the same log after it; damage does:
 * frames carrying this log's salts beyond the first bad one. A header SQLite cannot read makes it drop
 * the whole log. (Damage to the last transaction alone looks exactly like a torn tail: not caught.)
 */
function checkWal(file: string, wal: string, walSize: number): void {
  const refuse = (what: string) => new DamagedStoreError(`${wal}, the write-ahead log of ${file}, ${what}: SQLite would drop the commits it holds; ${RESTORE} with its log (never delete ${wal} to get past this: that loses them for good)`);
  if (walSize < WAL_HEADER) throw refuse(`is cut short (${walSize} bytes, less than its header)`);
  const fd = openSync(wal, 'r');
  try {
    const header = Buffer.alloc(WAL_HEADER);
    readSync(fd, header, 0, WAL_HEADER, 0);
    const magic = header.readUInt32BE(0);
    if (magic !== 0x377f0682 && magic !== 0x377f0683) throw refuse('has a garbled header');
    const bigEndian = (magic & 1) === 1;
    const pageSize = header.readUInt32BE(8);
    if (header.readUInt32BE(4) !== 3007000 || pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) throw refuse('has a garbled header');
    let [s0, s1] = checksum(header.subarray(0, 24), 0, 0, bigEndian);
    if (s0 !== header.readUInt32BE(24) || s1 !== header.readUInt32BE(28)) throw refuse('has a garbled header (checksum)');
    const salt1 = header.readUInt32BE(16);
    const salt2 = header.readUInt32BE(20);
    const frameSize = FRAME_HEADER + pageSize;
    const frames = Math.floor((walSize - WAL_HEADER) / frameSize);
    const frame = Buffer.alloc(frameSize);
    let firstBad = -1;
    for (let i = 0; i < frames; i++) {
      readSync(fd, frame, 0, frameSize, WAL_HEADER + i * frameSize);
      const ours = frame.readUInt32BE(8) === salt1 && frame.readUInt32BE(12) === salt2;
      if (firstBad >= 0) {
        if (ours) throw refuse(`is damaged at frame ${firstBad + 1} of ${frames}, with frames of the same log after it`);
        continue;
      }
      if (!ours || frame.readUInt32BE(0) === 0) { firstBad = i; continue; }
      [s0, s1] = checksum(frame.subarray(0, 8), s0, s1, bigEndian);
      [s0, s1] = checksum(frame.subarray(FRAME_HEADER), s0, s1, bigEndian);
      if (s0 !== frame.readUInt32BE(16) || s1 !== frame.readUInt32BE(20)) firstBad = i;
    }
  } finally {
    closeSync(fd);
  }
}

/** SQLite's WAL checksum: Fibonacci-weighted sums of 32-bit words, continued from (s0, s1). */
function checksum(data: Buffer, s0: number, s1: number, bigEndian: boolean): [number, number] {
  for (let i = 0; i + 8 <= data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}
