import { Injectable } from '@nestjs/common';
import { AttributeType } from '../catalogue/attribute-type';
import { AttributeRecord, OfferFacets } from '../catalogue/offer-facets';

/**
 * The attributes that name and measure the whole-catalogue attribute filters, kept in memory per type while the
 * attributes' revision (`attribute-revision.ts`), read with the filter's counters in the same query, is the one they
 * were read at. Any attribute write renews the revision, so every instance reads them again on its next call; a call
 * running during the write may still answer from before it, as any read may.
 */
@Injectable()
export class FacetAttributes {
  private kept?: { revision: string; byType: Map<AttributeType, Map<string, AttributeRecord>> };

  constructor(private readonly catalogue: OfferFacets) {}

  /**
   * The attributes of `type` by id, as of `revision`: from memory when they were read at it, else read (through the
   * `type` index) and kept. Without a revision (no attribute written since the database was made) they are read.
   */
  async ofType(type: AttributeType, revision: string | undefined): Promise<Map<string, AttributeRecord>> {
    if (revision === undefined) return this.catalogue.attributesOfType(type);
    if (this.kept?.revision !== revision) this.kept = { revision, byType: new Map() };
    const kept = this.kept;
    const known = kept.byType.get(type);
    if (known) return known;
    // Read after the revision was: a write in between renews it, so these are read again on the next call.
    const read = await this.catalogue.attributesOfType(type);
    kept.byType.set(type, read);
    return read;
  }

  /** The attribute `id` of either type as of `revision` (see `ofType`), if it is among them. */
  async known(id: string, revision: string | undefined): Promise<AttributeRecord | undefined> {
    if (revision === undefined) return undefined;
    const [options, values] = await Promise.all([
      this.ofType(AttributeType.OPTION, revision),
      this.ofType(AttributeType.VALUE, revision),
    ]);
    return options.get(id) ?? values.get(id);
  }
}
