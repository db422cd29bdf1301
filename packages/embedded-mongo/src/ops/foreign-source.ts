import type { Options } from 'mingo/types';
import type { QueryEnv } from '../query/mingo-options';
import type { Doc } from '../types';
import { foreignField, type ForeignField } from './foreign-field';
import type { ReadSource } from './match-options';

/**
 * The other collections of a command's database, as `$lookup`, `$graphLookup` and `$unionWith` read
 * them. Kept for the whole command: a view is computed once, and a foreign field's hash (when no
 * index serves it) is built once, however many input documents or nested pipelines look it up.
 */
export class ForeignResolver {
  private readonly sources = new Map<string, ReadSource>();
  private readonly fields = new Map<string, ForeignField>();

  constructor(
    private readonly read: (name: string) => ReadSource,
    readonly env: QueryEnv,
  ) {}

  /** The command's collation unless simple, as the command gave it. */
  private collation(): Doc | undefined {
    const locale = this.env.collation?.locale;
    return locale === undefined || locale === 'simple' ? undefined : this.env.collation;
  }

  source(name: string): ReadSource {
    if (!this.sources.has(name)) this.sources.set(name, this.read(name));
    return this.sources.get(name);
  }

  field(name: string, field: string): ForeignField {
    const key = `${name}\0${field}`;
    let found = this.fields.get(key);
    if (!found) {
      found = foreignField(this.source(name), field, this.collation());
      this.fields.set(key, found);
    }
    return found;
  }
}

/** Every document of a source, stored documents shared (a view's are computed). */
export function sourceDocs(source: ReadSource): Iterable<Doc> {
  if (!source) return [];
  return Array.isArray(source) ? source : source.docs.values();
}

/** mingo hands stages its options wrapped (ComputeOptions); ours travel under `foreign`. */
export function foreignResolver(options: Options, stage: string): ForeignResolver {
  const raw = ((options as { options?: Options }).options ?? options) as { foreign?: ForeignResolver };
  if (!raw.foreign) throw new Error(`${stage} is not allowed in this context`);
  return raw.foreign;
}
