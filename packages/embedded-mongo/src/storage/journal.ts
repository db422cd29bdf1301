import {
  closeSync,
  constants,
  existsSync,
  fdatasyncSync,
  fstatSync,
  openSync,
  readSync,
  write,
  writeSync,
  writevSync,
} from 'node:fs';
import { crc32 } from 'node:zlib';

const HEADER_BYTES = 4096;
const RECORD_HEADER_BYTES = 12;
const MAGIC = 0x454d4a31; // "EMJ1"
const ZERO_CHUNK = 1024 * 1024;

/**
 * A write-ahead journal: one preallocated file opened with O_DSYNC, so a record is on disk when its
 * write completes (one synchronous write per record, no file growth). The header holds a generation;
 * each record carries the generation, its length and a CRC-32, so recovery reads records from the
 * start until the first one that is torn, zero or from an older generation. `reset()` starts a new
 * generation once every record is in the main store.
 */
export class Journal {
  private position = HEADER_BYTES;

  private constructor(
    private readonly fd: number,
    private generation: number,
    readonly capacity: number,
  ) {}

  /** Opens (creating and preallocating when needed) the journal and returns it with its records. */
  static open(path: string, capacity: number): { journal: Journal; records: Buffer[] } {
    preallocate(path, capacity);
    const fd = openSync(path, constants.O_RDWR | constants.O_DSYNC);
    const header = Buffer.alloc(8);
    readSync(fd, header, 0, 8, 0);
    const generation = header.readUInt32LE(0) === MAGIC ? header.readUInt32LE(4) : 0;
    const journal = new Journal(fd, generation, capacity);
    return { journal, records: journal.readRecords() };
  }

  /**
   * What the file at `path` is, read before opening it: 'absent', 'fresh' (preallocated, never started: a zero
   * header) or 'used' (our header). Throws, naming the problem, for a header that is neither or a used journal
   * shorter than `capacity` (truncated: preallocation would silently fill its records with zeros).
   */
  static inspect(path: string, capacity: number): 'absent' | 'fresh' | 'used' {
    if (!existsSync(path)) return 'absent';
    const fd = openSync(path, 'r');
    try {
      const header = Buffer.alloc(8);
      const firstRecord = Buffer.alloc(RECORD_HEADER_BYTES);
      readSync(fd, header, 0, header.length, 0);
      readSync(fd, firstRecord, 0, firstRecord.length, HEADER_BYTES);
      const started = header.readUInt32LE(0) === MAGIC;
      if (!started && header.some((byte) => byte !== 0)) throw new Error('its header is not a journal header');
      // Generation 0 has a zero header: its first record tells a used journal from a preallocated one.
      if (!started && firstRecord.every((byte) => byte === 0)) return 'fresh';
      const size = fstatSync(fd).size;
      if (size < capacity) throw new Error(`it is ${size} bytes, shorter than its ${capacity} (truncated)`);
      return 'used';
    } finally {
      closeSync(fd);
    }
  }

  /** The records a journal holds, read without changing (or preallocating) the file. */
  static readRecords(path: string, capacity: number): Buffer[] {
    const fd = openSync(path, 'r');
    try {
      const header = Buffer.alloc(8);
      readSync(fd, header, 0, 8, 0);
      const generation = header.readUInt32LE(0) === MAGIC ? header.readUInt32LE(4) : 0;
      return new Journal(fd, generation, capacity).readRecords();
    } finally {
      closeSync(fd);
    }
  }

  /** Whether a record with this payload fits after the records written so far. */
  fits(payloadBytes: number): boolean {
    return this.position + RECORD_HEADER_BYTES + payloadBytes <= this.capacity;
  }

  /**
   * Appends a record; returns once it is on disk (O_DSYNC). Synchronous on purpose: the store's thread has nothing
   * to do meanwhile that could not wait one disk write, and requests arriving during it are read together right
   * after, into the next batch; a hop to libuv's thread pool and back cost more than the write itself.
   * The header and the payload go out in one `pwritev`, so the payload is not copied.
   */
  append(payload: Buffer): void {
    const header = Buffer.allocUnsafe(RECORD_HEADER_BYTES);
    header.writeUInt32LE(payload.length, 0);
    header.writeUInt32LE(this.generation, 4);
    header.writeUInt32LE(crc32(payload), 8);
    const length = RECORD_HEADER_BYTES + payload.length;
    // A failed or short write leaves the position, so the next record overwrites the torn one.
    const written = writevSync(this.fd, [header, payload], this.position);
    if (written !== length) throw new Error(`journal write was short (${written} of ${length} bytes)`);
    this.position += length;
  }

  /** Starts a new generation (on disk when this resolves): the records written so far are no longer replayed. */
  reset(): Promise<void> {
    const header = this.nextHeader();
    return new Promise((resolve, reject) => {
      write(this.fd, header, 0, header.length, 0, (error) => (error ? reject(error) : resolve(this.started())));
    });
  }

  /** `reset()` without yielding, for recovery at open. */
  resetSync(): void {
    const header = this.nextHeader();
    writeSync(this.fd, header, 0, header.length, 0);
    this.started();
  }

  close(): void {
    closeSync(this.fd);
  }

  private nextHeader(): Buffer {
    const header = Buffer.alloc(8);
    header.writeUInt32LE(MAGIC, 0);
    header.writeUInt32LE(this.generation + 1, 4);
    return header;
  }

  private started(): void {
    this.generation++;
    this.position = HEADER_BYTES;
  }

  private readRecords(): Buffer[] {
    const records: Buffer[] = [];
    const head = Buffer.alloc(RECORD_HEADER_BYTES);
    for (;;) {
      if (readSync(this.fd, head, 0, RECORD_HEADER_BYTES, this.position) < RECORD_HEADER_BYTES) break;
      const length = head.readUInt32LE(0);
      if (length === 0 || head.readUInt32LE(4) !== this.generation || !this.fits(length)) break;
      const payload = Buffer.alloc(length);
      readSync(this.fd, payload, 0, length, this.position + RECORD_HEADER_BYTES);
      if (crc32(payload) !== head.readUInt32LE(8)) break;
      records.push(payload);
      this.position += RECORD_HEADER_BYTES + length;
    }
    return records;
  }
}

/** Writes zeros up to `capacity` once (so records never grow the file, and unwritten space reads as zero). */
function preallocate(path: string, capacity: number): void {
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
  try {
    const size = fstatSync(fd).size;
    if (size >= capacity) return;
    const zeros = Buffer.alloc(ZERO_CHUNK);
    for (let at = size; at < capacity; at += ZERO_CHUNK) {
      writeSync(fd, zeros, 0, Math.min(ZERO_CHUNK, capacity - at), at);
    }
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
