import { BeanDescriptor } from '../bean';
import { SpecMethod, specSignature } from './spec-methods';

export interface MethodMatch {
  spec: SpecMethod;
  /** The registered overload it matched (see {@link compareWithSpec}), if any. */
  registered?: string;
}

export interface CatalogueReport {
  matches: MethodMatch[];
  /** Registered signatures the spec does not list, as `beanId.signature`. */
  extra: string[];
}

interface RegisteredSignature {
  name: string;
  arity: number;
  signature: string;
}

/** Registered signatures of a bean, with validated maps shown as the spec shows them (`Map`). */
function registeredSignatures(bean: BeanDescriptor): RegisteredSignature[] {
  return [...bean.functions.values()].flatMap((fn) =>
    fn.overloads.map((m) => ({
      name: m.name,
      arity: m.params.length,
      signature: m.signature.replace(/Map<\w+>/g, 'Map'),
    })),
  );
}

/**
 * Matches every spec method to a registered overload: one of the same signature, else one of the same name and
 * arity (registered with other parameter types). Each overload matches at most one spec method.
 */
export function compareWithSpec(spec: SpecMethod[], beans: readonly BeanDescriptor[]): CatalogueReport {
  const unmatched = new Map(beans.map((bean) => [bean.id, registeredSignatures(bean)]));
  const claim = (method: SpecMethod, fits: (r: RegisteredSignature) => boolean): string | undefined => {
    const candidates = unmatched.get(method.beanId) ?? [];
    const index = candidates.findIndex(fits);
    return index < 0 ? undefined : candidates.splice(index, 1)[0].signature;
  };
  const exact = spec.map((method) => claim(method, (r) => r.signature === specSignature(method)));
  const matches = spec.map((method, i) => ({
    spec: method,
    registered: exact[i] ?? claim(method, (r) => r.name === method.name && r.arity === method.params.length),
  }));
  const extra = [...unmatched].flatMap(([beanId, rest]) => rest.map((r) => `${beanId}.${r.signature}`)).sort();
  return { matches, extra };
}

/** The report as text, one bean per block, ending with the summary line. */
export function formatReport({ matches, extra }: CatalogueReport): string[] {
  const lines: string[] = [];
  for (const beanId of [...new Set(matches.map((m) => m.spec.beanId))]) {
    const ofBean = matches.filter((m) => m.spec.beanId === beanId);
    lines.push(`${beanId} (${ofBean.filter((m) => m.registered).length}/${ofBean.length})`);
    for (const { spec, registered } of ofBean)
      lines.push(`  ${registered ? 'ok' : '--'} ${specSignature(spec)}${differs(spec, registered)}`);
  }
  if (extra.length > 0) lines.push('', 'Registered, not in the spec:', ...extra.map((key) => `  + ${key}`));
  lines.push('', summary(matches));
  return lines;
}

function differs(spec: SpecMethod, registered: string | undefined): string {
  return registered && registered !== specSignature(spec) ? `   (registered as ${registered})` : '';
}

function summary(matches: MethodMatch[]): string {
  const registered = matches.filter((m) => m.registered).length;
  const missing = missingByBean(matches);
  return `registered ${registered}/${matches.length} spec methods; missing: ${missing.length > 0 ? missing.join(', ') : 'none'}`;
}

/** `bean (all N)` when a whole bean is missing, else `bean.method(...)` per missing method. */
function missingByBean(matches: MethodMatch[]): string[] {
  return [...new Set(matches.map((m) => m.spec.beanId))].flatMap((beanId) => {
    const ofBean = matches.filter((m) => m.spec.beanId === beanId);
    const missing = ofBean.filter((m) => !m.registered);
    if (missing.length > 1 && missing.length === ofBean.length) return [`${beanId} (all ${missing.length})`];
    return missing.map((m) => `${beanId}.${specSignature(m.spec)}`);
  });
}

/** Every registered signature, for when there is no spec to compare with. */
export function formatRegistry(beans: readonly BeanDescriptor[]): string[] {
  const signatures = beans.flatMap((bean) => registeredSignatures(bean).map((r) => `${bean.id}.${r.signature}`)).sort();
  return [
    ...signatures.map((key) => `  ${key}`),
    '',
    `registered ${signatures.length} methods in ${beans.length} beans; no spec to compare with`,
  ];
}
