import type { AttributeEntry, AttributeLabel, ProductSource } from './source-records';

/** An attribute of a product or SKU with what a storefront shows of it. */
export interface AttributeView {
  attributeId: string;
  name: string;
  type: string;
  unit: string | null;
  values: string[];
}

/**
 * A listed product's JSON text as a listing shows it (`ListedProduct` of the storefront views), kept in its storefront
 * index entries: a row's text is `lead`, the content in the request's language, `tail`, the row's offer's JSON and
 * `}` (`cardText`), a few strings joined instead of objects built from the entry and stringified. Only the offer
 * is composed per row: which one a row shows depends on the read, and its quantity changes with stock.
 */
export interface ListingCard {
  /** `{"id":…,"slug":…,` */
  lead: string;
  /**
   * Language and content (`"name":…,"description":…`) pairs: `''` and the product's own first, then each
   * translation's language and content (a translation without a description shows the product's).
   */
  contents: string[];
  /** `,"image":…,"attributes":[…],"cheapestOffer":` */
  tail: string;
}

/**
 * The product's card. Every string in it is JSON from `JSON.stringify` (names, descriptions, slugs and values are
 * data: never joined unescaped). `labels`: of the attributes the product names; one missing (deleted) is left out.
 */
export function listingCardOf(product: ProductSource, labels: Map<string, AttributeLabel>): ListingCard {
  const description = product.description ?? '';
  const contents = ['', contentText(product.name, description)];
  for (const translation of product.translations ?? []) {
    contents.push(translation.lang, contentText(translation.name, translation.description || description));
  }
  const attributes = attributeViews(product.attributes ?? [], labels);
  return {
    lead: `{"id":${JSON.stringify(String(product._id))},"slug":${JSON.stringify(product.slug ?? null)},`,
    contents,
    tail: `,"image":${JSON.stringify(product.images?.[0] ?? null)},"attributes":${JSON.stringify(attributes)},"cheapestOffer":`,
  };
}

/** The card's JSON with `offer` (an offer view's JSON) as its `cheapestOffer`, in `lang` (see `contentLanguage`). */
export function cardText(card: ListingCard, offer: string, lang: string): string {
  return `${card.lead}${contentIn(card.contents, contentLanguage(lang))}${card.tail}${offer}}`;
}

/** The language a product's content is shown in for a request's language: its primary subtag, lower case. */
export function contentLanguage(lang: string): string {
  return lang.split('-')[0].toLowerCase();
}

/** The content of the first translation in `language`, else the product's own. */
function contentIn(contents: string[], language: string): string {
  for (let at = 2; at < contents.length; at += 2) if (contents[at] === language) return contents[at + 1];
  return contents[1];
}

function contentText(name: string, description: string): string {
  return `"name":${JSON.stringify(name)},"description":${JSON.stringify(description)}`;
}

/** The entries with their attribute's name, type and unit; entries of a deleted attribute are left out. */
export function attributeViews(entries: AttributeEntry[], labels: Map<string, AttributeLabel>): AttributeView[] {
  return entries.flatMap(({ attribute, values }) => {
    const label = labels.get(String(attribute));
    if (!label) return [];
    return [{ attributeId: String(attribute), name: label.name, type: label.type, unit: label.unit ?? null, values }];
  });
}
