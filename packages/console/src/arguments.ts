import { CatalogueParam, JsonSchema } from './catalogue';

/** What the user typed for one argument: text for most types, a flag for booleans, one text per DTO property. */
export type ArgumentInput = string | boolean | Record<string, string | boolean>;

/** The empty input of a parameter (DTO defaults filled in). */
export function emptyInput(param: CatalogueParam): ArgumentInput {
  if (param.type === 'boolean') return false;
  if (!isDto(param)) return param.type === 'Map' ? '{}' : '';
  return Object.fromEntries(
    Object.entries(param.schema.properties ?? {}).map(([name, schema]) => [name, emptyPropertyInput(schema)]),
  );
}

function emptyPropertyInput(schema: JsonSchema): string | boolean {
  if (schema.type === 'boolean') return schema.default === true;
  if (schema.default === undefined) return '';
  return typeof schema.default === 'string' ? schema.default : JSON.stringify(schema.default);
}

/** A `Map<Dto>` parameter: a form of its properties rather than free JSON. */
export function isDto(param: CatalogueParam): boolean {
  return param.type.startsWith('Map<') && param.schema.properties !== undefined;
}

/** A problem found before sending (text that is not JSON), shown next to its field like the server's. */
export class InputProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The JSON argument for a parameter. Values are sent as typed where they parse (an integer field's "12" as 12) and as
 * the text otherwise, so that the server's own validation answers a wrong value, next to the field.
 * @throws InputProblem for a JSON field whose text is not JSON
 */
export function toArgument(param: CatalogueParam, input: ArgumentInput): unknown {
  const field = `args[${param.index}]`;
  if (typeof input === 'boolean') return input;
  if (typeof input === 'string') {
    switch (param.type) {
      case 'int':
        return /^-?\d+$/.test(input.trim()) ? Number(input.trim()) : input;
      case 'IdList':
        return input
          .split('\n')
          .map((id) => id.trim())
          .filter(Boolean);
      case 'String':
        return input;
      default:
        return parseJson(field, input);
    }
  }
  const properties = param.schema.properties ?? {};
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, value]) => value !== '')
      .map(([name, value]) => [name, propertyValue(`${field}.${name}`, properties[name] ?? {}, value)]),
  );
}

function propertyValue(field: string, schema: JsonSchema, value: string | boolean): unknown {
  if (typeof value === 'boolean') return value;
  if (schema.type === 'integer' || schema.type === 'number') {
    return /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : value;
  }
  if (schema.type === 'array' || schema.type === 'object') return parseJson(field, value);
  return value;
}

function parseJson(field: string, text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new InputProblem(field, 'not valid JSON');
  }
}

/**
 * The field a server problem belongs to: `args[1]` or `args[0].total` from `details`, or `args[i]` from a message
 * "Argument i: …". Unplaceable problems belong to the whole form (`''`).
 */
export function fieldOf(problemField: string | undefined, message: string): string {
  if (problemField && /^args\[\d+\]/.test(problemField)) return problemField;
  const argument = /^Argument (\d+):/.exec(message);
  return argument ? `args[${argument[1]}]` : '';
}
