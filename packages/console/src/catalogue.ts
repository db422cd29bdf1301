import { mayCall, Role } from './api';

/** The bean catalogue as `/api/v1/openapi.json` publishes it (`x-bean-catalogue`, built from the registry). */
export interface JsonSchema {
  type?: string;
  title?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  oneOf?: JsonSchema[];
  format?: string;
}

export interface CatalogueParam {
  index: number;
  type: string;
  schema: JsonSchema;
}

export interface CatalogueOverload {
  signature: string;
  params: CatalogueParam[];
  role: Role;
}

export interface CatalogueFunction {
  name: string;
  overloads: CatalogueOverload[];
}

export interface CatalogueBean {
  beanId: string;
  role: Role;
  functions: CatalogueFunction[];
}

/** One function of one bean, with only the overloads the caller may call. */
export interface MethodEntry {
  beanId: string;
  name: string;
  overloads: CatalogueOverload[];
}

export async function loadCatalogue(): Promise<CatalogueBean[]> {
  const response = await fetch('/api/v1/openapi.json');
  if (!response.ok) throw new Error(`openapi.json answered ${response.status}`);
  const document = (await response.json()) as { 'x-bean-catalogue'?: CatalogueBean[] };
  return document['x-bean-catalogue'] ?? [];
}

/** Every function the role may call (at least one overload), as `beanId.name` entries sorted by name. */
export function callableMethods(beans: CatalogueBean[], role: Role): MethodEntry[] {
  return beans.flatMap((bean) =>
    bean.functions
      .map((fn) => ({
        beanId: bean.beanId,
        name: fn.name,
        overloads: fn.overloads.filter((o) => mayCall(role, o.role)),
      }))
      .filter((entry) => entry.overloads.length > 0),
  );
}

/** Entries whose `beanId.name` contains every word of `query`, ignoring case. */
export function searchMethods(entries: MethodEntry[], query: string): MethodEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return entries.filter((entry) => {
    const text = `${entry.beanId}.${entry.name}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
