/** One queued change of the lmdb store; a batch's changes are applied in order. */
export type Write =
  { table: 'docs' | 'catalog'; key: string; value: Uint8Array | null } | { table: 'docs'; droppedNs: string };

const Kind = { PutDoc: 0, RemoveDoc: 1, PutCatalog: 2, RemoveCatalog: 3, DropNs: 4 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

function kindOf(write: Write): Kind {
  if ('droppedNs' in write) return Kind.DropNs;
  if (write.table === 'docs') return write.value ? Kind.PutDoc : Kind.RemoveDoc;
  return write.value ? Kind.PutCatalog : Kind.RemoveCatalog;
}

/** A journal record's payload: per write its kind, its key (or dropped namespace) and, for puts, the value. */
export function encodeWrites(writes: Write[]): Buffer {
  const parts: Buffer[] = [];
  for (const write of writes) {
    const kind = kindOf(write);
    const key = Buffer.from('droppedNs' in write ? write.droppedNs : write.key);
    const value = 'droppedNs' in write ? null : write.value;
    const head = Buffer.allocUnsafe(value ? 9 : 5);
    head.writeUInt8(kind, 0);
    head.writeUInt32LE(key.length, 1);
    if (value) head.writeUInt32LE(value.byteLength, 5);
    parts.push(head.subarray(0, 5), key);
    if (value) parts.push(head.subarray(5), Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return Buffer.concat(parts);
}

export function decodeWrites(payload: Buffer): Write[] {
  const writes: Write[] = [];
  let at = 0;
  while (at < payload.length) {
    const kind = payload.readUInt8(at) as Kind;
    const keyLength = payload.readUInt32LE(at + 1);
    const key = payload.toString('utf8', at + 5, at + 5 + keyLength);
    at += 5 + keyLength;
    if (kind === Kind.DropNs) {
      writes.push({ table: 'docs', droppedNs: key });
    } else if (kind === Kind.RemoveDoc || kind === Kind.RemoveCatalog) {
      writes.push({ table: kind === Kind.RemoveDoc ? 'docs' : 'catalog', key, value: null });
    } else {
      const valueLength = payload.readUInt32LE(at);
      const value = payload.subarray(at + 4, at + 4 + valueLength);
      at += 4 + valueLength;
      writes.push({ table: kind === Kind.PutDoc ? 'docs' : 'catalog', key, value });
    }
  }
  return writes;
}
