import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Offline verification of an lmdb data file (`data.mdb`), read with plain reads and never mapped: lmdb maps the file
 * and trusts it, so a zeroed, overwritten or truncated file makes it crash the process (SIGSEGV, SIGBUS) instead of
 * failing. This reads what lmdb would read first: both meta pages, then every page reachable from the newest one
 * (the free-page tree, the main tree and each named database in it), checking each page's header (its own number,
 * its kind, its bounds, a transaction id no later than the meta's) and that it lies within the file. Layout of
 * lmdb-js 3's LMDB (`dependencies/lmdb/libraries/liblmdb/mdb.c`, 64-bit): a 24-byte page header.
 */
const PAGE_HEADER_BYTES = 24;
const MAGIC = 0xbeefc0de;
const DATA_VERSION = 2;
const P_BRANCH = 0x01;
const P_LEAF = 0x02;
const P_OVERFLOW = 0x04;
const P_META = 0x08;
const F_BIGDATA = 0x01;
const F_SUBDATA = 0x02;
const NODE_HEADER_BYTES = 8;
const DB_RECORD_BYTES = 48;
/** `P_INVALID`: the root of an empty tree. */
const NO_PAGE = 0xffffffffffffffffn;

/** One tree's description (`MDB_db`). */
interface TreeRecord {
  depth: number;
  root: bigint;
}

interface Meta {
  pageSize: number;
  trees: TreeRecord[];
  txnid: bigint;
}

/** A problem found in the file, in words an operator can act on. */
export class LmdbFileDamage extends Error {}

/** Throws {@link LmdbFileDamage} describing the first problem found; returns the number of live pages otherwise. */
export function checkLmdbFile(path: string): number {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) throw new LmdbFileDamage('the file is empty (0 bytes)');
    const reader = new PageReader(fd, size);
    const meta = newestMeta(reader);
    reader.pageSize = meta.pageSize;
    const walk = new TreeWalk(reader, meta.txnid);
    for (const tree of meta.trees) walk.tree(tree, 'a core tree');
    return walk.pages;
  } finally {
    closeSync(fd);
  }
}

class PageReader {
  /** Until the meta page says otherwise: lmdb's meta pages sit at 0 and at one page size. */
  pageSize = 4096;
  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  get pageCount(): number {
    return Math.floor(this.size / this.pageSize);
  }

  read(offset: number, length: number): Buffer {
    const buffer = Buffer.alloc(length);
    const read = readSync(this.fd, buffer, 0, length, offset);
    if (read < length) throw new LmdbFileDamage(`the file ends at byte ${this.size}, inside data at byte ${offset}`);
    return buffer;
  }
}

function newestMeta(reader: PageReader): Meta {
  if (reader.size < 2 * 512) throw new LmdbFileDamage(`the file is ${reader.size} bytes, too short for its meta pages`);
  const first = parseMeta(reader.read(0, 512), 0);
  reader.pageSize = first.pageSize;
  const second = parseMeta(reader.read(first.pageSize, 512), 1);
  if (second.pageSize !== first.pageSize) throw new LmdbFileDamage('the two meta pages disagree on the page size');
  return second.txnid > first.txnid ? second : first;
}

function parseMeta(page: Buffer, number: number): Meta {
  const at = PAGE_HEADER_BYTES;
  const damaged = (what: string) => new LmdbFileDamage(`meta page ${number}: ${what}`);
  if (page.readUInt32LE(at) !== MAGIC) throw damaged('not an lmdb meta page (bad magic number)');
  if (page.readUInt32LE(at + 4) !== DATA_VERSION) throw damaged(`unknown format version ${page.readUInt32LE(at + 4)}`);
  if (page.readBigUInt64LE(0) !== BigInt(number) || !(page.readUInt16LE(18) & P_META)) throw damaged('bad page header');
  const trees = [readTree(page, at + 24), readTree(page, at + 24 + DB_RECORD_BYTES)];
  const pageSize = page.readUInt32LE(at + 24);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    throw damaged(`bad page size ${pageSize}`);
  const txnid = page.readBigUInt64LE(at + 24 + 2 * DB_RECORD_BYTES + 8);
  return { pageSize, trees, txnid };
}

function readTree(buffer: Buffer, at: number): TreeRecord {
  return { depth: buffer.readUInt16LE(at + 6), root: buffer.readBigUInt64LE(at + 40) };
}

/** Visits every page of the trees it is given, depth first; `pages` counts them. */
class TreeWalk {
  pages = 0;
  constructor(
    private readonly reader: PageReader,
    private readonly txnid: bigint,
  ) {}

  tree(record: TreeRecord, name: string): void {
    if (record.root === NO_PAGE) return;
    if (record.depth < 1 || record.depth > 64) throw new LmdbFileDamage(`${name}: bad tree depth ${record.depth}`);
    this.page(record.root, record.depth, name);
  }

  private page(pgno: bigint, depth: number, name: string): void {
    const page = this.load(pgno, name);
    const flags = page.readUInt16LE(18);
    const expected = depth === 1 ? P_LEAF : P_BRANCH;
    if (!(flags & expected)) throw this.damage(pgno, name, `a ${depth === 1 ? 'leaf' : 'branch'} page was expected`);
    const leaf = depth === 1;
    for (const node of nodes(page, leaf, () => this.damage(pgno, name, 'node offsets out of bounds'))) {
      if (!leaf) this.page(node.pgno, depth - 1, name);
      else this.leafNode(node, name, pgno);
    }
  }

  private leafNode(node: Node, name: string, pgno: bigint): void {
    if (node.flags & F_BIGDATA) this.overflow(node.data.readBigUInt64LE(0), name);
    else if (node.flags & F_SUBDATA) {
      if (node.data.length < DB_RECORD_BYTES) throw this.damage(pgno, name, 'a truncated database record');
      this.tree(readTree(node.data, 0), `database "${node.key.toString('utf8').replace(/\0$/, '')}"`);
    }
  }

  private overflow(pgno: bigint, name: string): void {
    const page = this.load(pgno, name);
    if (!(page.readUInt16LE(18) & P_OVERFLOW)) throw this.damage(pgno, name, 'an overflow page was expected');
    const count = page.readUInt32LE(20);
    if (count < 1 || Number(pgno) + count > this.reader.pageCount) {
      throw this.damage(pgno, name, `its ${count} overflow pages run past the end of the file`);
    }
    this.pages += count - 1;
  }

  /** Reads a page and checks what every page header must hold. */
  private load(pgno: bigint, name: string): Buffer {
    if (pgno < 2n || pgno >= BigInt(this.reader.pageCount)) {
      throw this.damage(pgno, name, `beyond the end of the file (${this.reader.pageCount} pages): truncated`);
    }
    const { pageSize } = this.reader;
    const page = this.reader.read(Number(pgno) * pageSize, pageSize);
    if (page.readBigUInt64LE(0) !== pgno) throw this.damage(pgno, name, 'its header names another page (overwritten)');
    if (page.readBigUInt64LE(8) > this.txnid)
      throw this.damage(pgno, name, 'written by a later transaction than the meta');
    this.pages++;
    return page;
  }

  private damage(pgno: bigint, name: string, what: string): LmdbFileDamage {
    return new LmdbFileDamage(`page ${pgno} of ${name}: ${what}`);
  }
}

interface Node {
  flags: number;
  key: Buffer;
  data: Buffer;
  /** A branch node's child page. */
  pgno: bigint;
}

/** The nodes of a branch or leaf page (`NODEPTR`, `NODEPGNO`, `NODEDSZ` of mdb.c). */
function nodes(page: Buffer, leaf: boolean, outOfBounds: () => Error): Node[] {
  const lower = page.readUInt16LE(20);
  const upper = page.readUInt16LE(22);
  if (lower > upper || PAGE_HEADER_BYTES + upper > page.length) throw outOfBounds();
  const result: Node[] = [];
  for (let index = 0; index < lower >> 1; index++) {
    const at = PAGE_HEADER_BYTES + page.readUInt16LE(PAGE_HEADER_BYTES + 2 * index);
    if (at + NODE_HEADER_BYTES > page.length) throw outOfBounds();
    const low = page.readUInt16LE(at);
    const high = page.readUInt16LE(at + 2);
    const flags = page.readUInt16LE(at + 4);
    const keyEnd = at + NODE_HEADER_BYTES + page.readUInt16LE(at + 6);
    // A branch node's size fields hold its child's page number instead; its data is empty.
    const dataSize = !leaf ? 0 : flags & F_BIGDATA ? 8 : low + high * 65536;
    const dataEnd = keyEnd + dataSize;
    if (dataEnd > page.length) throw outOfBounds();
    const pgno = BigInt(low) + (BigInt(high) << 16n) + (BigInt(flags) << 32n);
    result.push({
      flags,
      key: page.subarray(at + NODE_HEADER_BYTES, keyEnd),
      data: page.subarray(keyEnd, dataEnd),
      pgno,
    });
  }
  return result;
}
