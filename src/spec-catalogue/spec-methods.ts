/** One method line of the spec's service component list, e.g. `startJob(type, total: int) → Job`. */
export interface SpecMethod {
  beanId: string;
  name: string;
  /** Parameter types; an argument without a written type is a `String`. */
  params: string[];
}

const BEAN_HEADING = /^\*\*(\w+)\*\*/;
const METHOD = /`(\w+)\(([^)]*)\)/g;

/**
 * Reads the method list of `spec/service-gateway-interface.md`: a `**beanId**` line starts a bean, each
 * `` - `method(arg: Type, ...) → Result` `` line below it holds one method (or several, as vcsProvider's does).
 */
export function parseSpecMethods(markdown: string): SpecMethod[] {
  const methods: SpecMethod[] = [];
  let beanId: string | undefined;
  for (const line of markdown.split('\n')) {
    const heading = BEAN_HEADING.exec(line);
    if (heading) beanId = heading[1];
    if (!beanId || !line.startsWith('- `')) continue;
    for (const [, name, params] of line.matchAll(METHOD)) methods.push({ beanId, name, params: parseParams(params) });
  }
  return methods;
}

function parseParams(list: string): string[] {
  if (list.trim() === '') return [];
  return list.split(',').map((param) => param.split(':')[1]?.trim() ?? 'String');
}

export function specSignature(method: Pick<SpecMethod, 'name' | 'params'>): string {
  return `${method.name}(${method.params.join(', ')})`;
}
