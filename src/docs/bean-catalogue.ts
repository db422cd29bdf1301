import { BeanDescriptor, BeanMethod, ParamType, paramTypeName } from '../bean';
import { Role } from '../common/principal';
import { dtoSchema } from './dto-schema';

/** One parameter of an exposed method as documentation shows it. */
export interface CatalogueParam {
  index: number;
  /** `String`, `int`, `boolean`, `Map`, `IdList`, or `Map<Dto>` for a validated map. */
  type: string;
  schema: Record<string, unknown>;
}

export interface CatalogueOverload {
  signature: string;
  params: CatalogueParam[];
  role: Role;
  access: string;
}

export interface CatalogueFunction {
  name: string;
  overloads: CatalogueOverload[];
}

export interface CatalogueBean {
  beanId: string;
  className: string;
  role: Role;
  functions: CatalogueFunction[];
}

/** What each role means for a caller of the unified call (DESIGN §2, "Access"). */
export const ACCESS_BY_ROLE: Readonly<Record<Role, string>> = {
  [Role.GUEST]: 'anyone; a token, if sent, must be valid',
  [Role.USER]: 'bearer token or session of a USER or ADMIN',
  [Role.ADMIN]: 'bearer token or session of an ADMIN',
};

/** Every bean, function and overload of the registry, sorted by name: the bean catalogue of the API docs. */
export function describeBeans(beans: readonly BeanDescriptor[]): CatalogueBean[] {
  return [...beans].sort(byKey((bean) => bean.id)).map((bean) => ({
    beanId: bean.id,
    className: bean.className,
    role: bean.role,
    functions: [...bean.functions.values()].sort(byKey((f) => f.name)).map((fn) => ({
      name: fn.name,
      overloads: fn.overloads.map(describeOverload),
    })),
  }));
}

function describeOverload(method: BeanMethod): CatalogueOverload {
  return {
    signature: method.signature,
    params: method.params.map((type, index) => ({ index, type: paramTypeName(type), schema: jsonSchemaOf(type) })),
    role: method.role,
    access: ACCESS_BY_ROLE[method.role],
  };
}

/** The JSON a caller sends for a parameter type (conversion rules: README, "The bean framework"). */
export function jsonSchemaOf(type: ParamType): Record<string, unknown> {
  if (typeof type !== 'string') return dtoSchema(type.dto);
  switch (type) {
    case 'String':
      return { type: 'string' };
    case 'int':
      return {
        oneOf: [
          { type: 'integer', format: 'int32' },
          { type: 'string', pattern: '^-?\\d{1,10}$' },
        ],
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'Map':
      return { type: 'object' };
    case 'IdList':
      return { type: 'array', items: { type: 'string' } };
  }
}

function byKey<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => key(a).localeCompare(key(b));
}
