import { compareKeys } from './interval';

/** An index entry as scans return it (a copy), or a search probe. */
export interface Entry {
  key: unknown[];
  id: string;
  /** Search probes only: sort before (-1) or after (+1) every entry extending `key`. */
  edge?: -1 | 1;
}

/** Entries a block holds at most: a full one splits in two, and one emptied to a quarter merges with a neighbour. */
const BLOCK_ENTRIES = 128;
/** Entries in each block of a bulk load (room for inserts before a block splits). */
const LOADED_ENTRIES = BLOCK_ENTRIES / 2;

/** A place in the blocks: block number and slot of an entry's first value. */
interface Position {
  block: number;
  slot: number;
}

/**
 * The entries of an index in order, stored flat: a sorted list of blocks, each a plain array holding its entries'
 * values one after the other (an entry's key values, then its document id). An entry is no object of its own: a
 * B+ tree of `{ key, id }` objects held three heap objects per entry (the entry, its key array, the array's store),
 * and the 100× catalogue's millions of them made every full GC of the database thread take seconds
 * (bench/README.md, `compactidx`). Scans return a copy of each entry they read (young objects, soon collected).
 *
 * Order: key values field by field (MongoDB's order of values, each field in its direction), then document id. A
 * probe with fewer key values orders before (or by its edge, before or after) the entries extending them.
 */
export class SortedEntries {
  private blocks: unknown[][] = [];
  private count = 0;
  /** Values an entry takes in a block: its key fields and its id. */
  private readonly width: number;

  constructor(private readonly directions: number[]) {
    this.width = directions.length + 1;
  }

  get size(): number {
    return this.count;
  }

  /** How `probe` orders against the entry of `key[at...]` and `id` (a block's slot, or a copy's key at 0). */
  private compareTo(probe: Entry, key: ArrayLike<unknown>, at: number, id: unknown): number {
    const values = probe.key;
    for (let i = 0; i < values.length; i++) {
      const cmp = compareKeys(values[i], key[at + i]);
      if (cmp !== 0) return this.directions[i] < 0 ? -cmp : cmp;
    }
    if (probe.edge) return probe.edge;
    if (values.length < this.directions.length) return -1;
    return probe.id < (id as string) ? -1 : probe.id > (id as string) ? 1 : 0;
  }

  /** The order of two entries (sorting them for a bulk load). */
  readonly compare = (a: Entry, b: Entry): number => this.compareTo(a, b.key, 0, b.id);

  private compareAt(probe: Entry, block: unknown[], slot: number): number {
    return this.compareTo(probe, block, slot, block[slot + this.width - 1]);
  }

  /** The entries replaced by `sorted` (in order, without duplicates). */
  load(sorted: Entry[]): void {
    this.blocks = [];
    for (let start = 0; start < sorted.length; start += LOADED_ENTRIES) {
      this.blocks.push(this.blockOf(sorted.slice(start, start + LOADED_ENTRIES)));
    }
    this.count = sorted.length;
  }

  private blockOf(entries: Entry[]): unknown[] {
    const block = new Array<unknown>(entries.length * this.width);
    entries.forEach(({ key, id }, i) => {
      const slot = i * this.width;
      for (let field = 0; field < key.length; field++) block[slot + field] = key[field];
      block[slot + key.length] = id;
    });
    return block;
  }

  /** Where `probe` belongs: the first entry not before it (or the end, block = number of blocks). */
  private seek(probe: Entry): Position {
    const { blocks, width } = this;
    let [low, high] = [0, blocks.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      const block = blocks[middle];
      if (this.compareAt(probe, block, block.length - width) > 0) low = middle + 1;
      else high = middle;
    }
    if (low === blocks.length) return { block: low, slot: 0 };
    const block = blocks[low];
    let [first, last] = [0, block.length / width];
    while (first < last) {
      const middle = (first + last) >>> 1;
      if (this.compareAt(probe, block, middle * width) > 0) first = middle + 1;
      else last = middle;
    }
    return { block: low, slot: first * width };
  }

  private holds(probe: Entry, { block, slot }: Position): boolean {
    return block < this.blocks.length && this.compareAt(probe, this.blocks[block], slot) === 0;
  }

  has(probe: Entry): boolean {
    return this.holds(probe, this.seek(probe));
  }

  /** Adds the entry unless it is there already; whether it was added. */
  insert(key: unknown[], id: string): boolean {
    const entry = { key, id };
    const position = this.seek(entry);
    if (this.holds(entry, position)) return false;
    if (this.blocks.length === 0) this.blocks.push([]);
    const at = position.block < this.blocks.length ? position : this.endOfLast();
    const block = this.blocks[at.block];
    block.splice(at.slot, 0, ...key, id);
    this.count++;
    if (block.length > BLOCK_ENTRIES * this.width) this.split(at.block);
    return true;
  }

  private endOfLast(): Position {
    const block = this.blocks.length - 1;
    return { block, slot: this.blocks[block].length };
  }

  private split(index: number): void {
    const block = this.blocks[index];
    const half = Math.floor(block.length / this.width / 2) * this.width;
    this.blocks.splice(index, 1, block.slice(0, half), block.slice(half));
  }

  /** Removes the entry equal to `probe`; whether there was one. */
  delete(probe: Entry): boolean {
    const position = this.seek(probe);
    if (!this.holds(probe, position)) return false;
    const block = this.blocks[position.block];
    block.splice(position.slot, this.width);
    this.count--;
    if (block.length === 0) this.blocks.splice(position.block, 1);
    else if (block.length < (BLOCK_ENTRIES / 4) * this.width) this.mergeWithNeighbour(position.block);
    return true;
  }

  /** Joins a small block with the next one (or the previous, for the last) when both fit in one block. */
  private mergeWithNeighbour(index: number): void {
    const first = index + 1 < this.blocks.length ? index : index - 1;
    if (first < 0) return;
    const joined = this.blocks[first].concat(this.blocks[first + 1]);
    if (joined.length <= BLOCK_ENTRIES * this.width) this.blocks.splice(first, 2, joined);
  }

  private entryAt(block: unknown[], slot: number): Entry {
    const fields = this.width - 1;
    return { key: block.slice(slot, slot + fields), id: block[slot + fields] as string };
  }

  /**
   * Entries from the first not before `probe` on, in order (after it, when `exclusive` and one equals it).
   * Read lazily: a caller that changed the entries meanwhile must seek again.
   */
  *ascending(probe: Entry, exclusive = false): Generator<Entry> {
    let { block, slot } = this.seek(probe);
    if (exclusive && this.holds(probe, { block, slot })) slot += this.width;
    for (; block < this.blocks.length; block++, slot = 0) {
      const values = this.blocks[block];
      for (; slot < values.length; slot += this.width) yield this.entryAt(values, slot);
    }
  }

  /** Entries before `probe`, last first. Read lazily, as `ascending`. */
  *descending(probe: Entry): Generator<Entry> {
    const start = this.seek(probe);
    // The entry before the place found (none in that block when it is the block's first, or the end).
    let slot = start.slot - this.width;
    for (let block = start.block; block >= 0; block--) {
      const values = this.blocks[block];
      if (block !== start.block) slot = values.length - this.width;
      for (; slot >= 0; slot -= this.width) yield this.entryAt(values, slot);
    }
  }

  /**
   * How many entries lie from the first not before `from` up to (not including) the first not before `to`, counted
   * by block lengths, no entry copied; `each` is given their ids, in order, when the caller needs them.
   */
  countBetween(from: Entry, to: Entry, each?: (id: string) => void): number {
    const start = this.seek(from);
    const end = this.seek(to);
    let count = 0;
    for (let block = start.block; block <= end.block && block < this.blocks.length; block++) {
      const values = this.blocks[block];
      const first = block === start.block ? start.slot : 0;
      const last = block === end.block ? end.slot : values.length;
      if (last <= first) continue;
      count += (last - first) / this.width;
      if (each) for (let slot = first + this.width - 1; slot < last; slot += this.width) each(values[slot] as string);
    }
    return count;
  }

  /** Every entry, in order. */
  *all(): Generator<Entry> {
    for (const block of this.blocks) {
      for (let slot = 0; slot < block.length; slot += this.width) yield this.entryAt(block, slot);
    }
  }
}
