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
/** A generation whose records follow one another byte for byte (journals written before records were aligned). */
const MAGIC_PACKED = 0x454d4a31; // "EMJ1"
/** A generation whose records each start at a multiple of RECORD_ALIGNMENT (zeros in between). */
const MAGIC_ALIGNED = 0x454d4a32; // "EMJ2"
/** The sector size a direct write must be a multiple of, in offset and length (512 for most disks). */
const RECORD_ALIGNMENT = 512;
/** Records up to this size are written directly from one sector-aligned buffer; larger ones through the page cache. */
const DIRECT_BUFFER_BYTES = 1024 * 1024;
const ZERO_CHUNK = 1024 * 1024;

/** Where a record is written from without the page cache: the O_DIRECT descriptor and a sector-aligned buffer. */
interface DirectWrites {
  fd: number;
  buffer: Buffer;
}

/**
 * A write-ahead journal: one preallocated file written synchronously (O_DSYNC), so a record is on disk when its
 * write completes (one synchronous write per record, no file growth). The header holds a generation;
 * each record carries the generation, its length and a CRC-32, so recovery reads records from the
 * start until the first one that is torn, zero or from an older generation. `reset()` starts a new
 * generation once every record is in the main store.
 *
 * Records start at sector boundaries and are written with O_DIRECT where the file system allows it: the write goes
 * from our buffer to the disk without passing through the page cache (no copy into it, no writeback of a page), which
 * costs the thread less CPU per write than a buffered O_DSYNC write of the same record (bench/README.md).
 */
export class Journal {
  private position = HEADER_BYTES;

  private constructor(
    private readonly fd: number,
    private generation: number,
    /** Whether this generation's records start at sector boundaries (a header written by this version). */
    private aligned: boolean,
    readonly capacity: number,
    private direct?: DirectWrites,
  ) {}

  /**
   * Opens (creating and preallocating when needed) the journal and returns it with its records. A journal without
   * records starts an aligned generation at once; one with records (possibly packed, from an earlier version) keeps
   * its generation until `reset()`/`resetSync()`, after they were replayed.
   */
  static open(path: string, capacity: number): { journal: Journal; records: Buffer[] } {
    preallocate(path, capacity);
    const fd = openSync(path, constants.O_RDWR | constants.O_DSYNC);
    const { generation, aligned } = readHeader(fd);
    const journal = new Journal(fd, generation, aligned, capacity, openDirect(path));
    const records = journal.readRecords();
    if (records.length === 0 && !aligned) journal.resetSync();
    return { journal, records };
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
      const started = isMagic(header.readUInt32LE(0));
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
      const { generation, aligned } = readHeader(fd);
      return new Journal(fd, generation, aligned, capacity).readRecords();
    } finally {
      closeSync(fd);
    }
  }

  /** Whether a record with this payload fits after the records written so far. */
  fits(payloadBytes: number): boolean {
    return this.position + RECORD_HEADER_BYTES + payloadBytes <= this.capacity;
  }

  /** Whether records are written without the page cache (O_DIRECT), for the records that fit its buffer. */
  get writesDirectly(): boolean {
    return this.direct !== undefined;
  }

  /**
   * Appends a record; returns once it is on disk (O_DSYNC). Synchronous on purpose: the store's thread has nothing
   * to do meanwhile that could not wait one disk write, and requests arriving during it are read together right
   * after, into the next batch; a hop to libuv's thread pool and back cost more than the write itself.
   */
  append(payload: Buffer): void {
    const header = Buffer.allocUnsafe(RECORD_HEADER_BYTES);
    header.writeUInt32LE(payload.length, 0);
    header.writeUInt32LE(this.generation, 4);
    header.writeUInt32LE(crc32(payload), 8);
    const next = this.after(RECORD_HEADER_BYTES + payload.length);
    // A failed or short write leaves the position, so the next record overwrites the torn one.
    if (!this.aligned || !this.writtenDirectly(header, payload, next - this.position)) {
      // Through the page cache: the header and the payload go out in one `pwritev`, so the payload is not copied.
      expectWritten(writevSync(this.fd, [header, payload], this.position), RECORD_HEADER_BYTES + payload.length);
    }
    this.position = next;
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
    if (this.direct) closeSync(this.direct.fd);
    closeSync(this.fd);
  }

  /**
   * Writes the record, zero-padded to `bytes` (whole sectors), from the aligned buffer; false when it does not fit
   * there or there are no direct writes. A disk that refuses a direct write (EINVAL: an alignment this probe did not
   * find) ends direct writes for good: this record and the next go through the page cache.
   */
  private writtenDirectly(header: Buffer, payload: Buffer, bytes: number): boolean {
    if (!this.direct || bytes > this.direct.buffer.length) return false;
    const { fd, buffer } = this.direct;
    header.copy(buffer, 0);
    payload.copy(buffer, RECORD_HEADER_BYTES);
    buffer.fill(0, RECORD_HEADER_BYTES + payload.length, bytes);
    try {
      expectWritten(writeSync(fd, buffer, 0, bytes, this.position), bytes);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
      closeSync(fd);
      this.direct = undefined;
      return false;
    }
  }

  /** Where the record after one of `bytes` (header included) at the current position starts. */
  private after(bytes: number): number {
    const end = this.position + bytes;
    return this.aligned ? Math.ceil(end / RECORD_ALIGNMENT) * RECORD_ALIGNMENT : end;
  }

  private nextHeader(): Buffer {
    const header = Buffer.alloc(8);
    header.writeUInt32LE(MAGIC_ALIGNED, 0);
    header.writeUInt32LE(this.generation + 1, 4);
    return header;
  }

  private started(): void {
    this.generation++;
    this.aligned = true;
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
      this.position = this.after(RECORD_HEADER_BYTES + length);
    }
    return records;
  }
}

/** The generation in the header and whether its records are aligned; a zero header is generation 0, packed. */
function readHeader(fd: number): { generation: number; aligned: boolean } {
  const header = Buffer.alloc(8);
  readSync(fd, header, 0, header.length, 0);
  const magic = header.readUInt32LE(0);
  return { generation: isMagic(magic) ? header.readUInt32LE(4) : 0, aligned: magic === MAGIC_ALIGNED };
}

function isMagic(value: number): boolean {
  return value === MAGIC_PACKED || value === MAGIC_ALIGNED;
}

function expectWritten(written: number, length: number): void {
  if (written !== length) throw new Error(`journal write was short (${written} of ${length} bytes)`);
}

/**
 * A second descriptor on the journal, opened with O_DIRECT, and a buffer it accepts, or undefined where the platform
 * or the file system has no direct writes (then every record goes through the page cache, as durable).
 */
function openDirect(path: string): DirectWrites | undefined {
  const { O_DIRECT } = constants as { O_DIRECT?: number };
  if (O_DIRECT === undefined) return undefined;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_DSYNC | O_DIRECT);
  } catch {
    return undefined;
  }
  const buffer = alignedBuffer(fd);
  if (!buffer) closeSync(fd);
  return buffer && { fd, buffer };
}

/**
 * A buffer of DIRECT_BUFFER_BYTES at an address the disk takes direct transfers from. JavaScript cannot see addresses,
 * so the start is found by trying: a direct read of two pages succeeds only into memory aligned as the disk needs
 * (EINVAL otherwise). The buffer is allocated outside the JavaScript heap (`allocUnsafeSlow`), where it never moves.
 */
function alignedBuffer(fd: number): Buffer | undefined {
  const slab = Buffer.allocUnsafeSlow(DIRECT_BUFFER_BYTES + RECORD_ALIGNMENT);
  const probe = 2 * HEADER_BYTES;
  for (let offset = 0; offset < RECORD_ALIGNMENT; offset += 8) {
    try {
      readSync(fd, slab, offset, probe, 0);
      return slab.subarray(offset, offset + DIRECT_BUFFER_BYTES);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EINVAL') return undefined;
    }
  }
  return undefined;
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
