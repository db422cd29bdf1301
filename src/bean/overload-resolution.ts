import { jsonTypeOf } from './argument-conversion';
import { BeanFunction, BeanMethod } from './bean-descriptor';
import { codedError } from '../common/errors/coded-exception';

/**
 * Picks the overload by argument count, then by argument types. The registry refuses overloads that one argument list
 * could match both, so at most one matches; none is a 400 listing the available signatures.
 */
export function resolveOverload(fn: BeanFunction, args: unknown[]): BeanMethod {
  const sameArity = fn.overloadsByArity.get(args.length) ?? [];
  if (sameArity.length === 1) return sameArity[0];
  const matching = sameArity.find((method) => method.converters.every((converter, i) => converter.accepts(args[i])));
  if (matching) return matching;
  const received = `${fn.name}(${args.map(jsonTypeOf).join(', ')})`;
  const available = fn.overloads.map((method) => method.signature).join(', ');
  throw codedError(
    'NO_MATCHING_SIGNATURE',
    `No signature of '${fn.name}' matches the call ${received}; available: ${available}`,
  );
}

/** Converts positional arguments to the declared types of `method`. */
export function convertArguments(method: BeanMethod, args: unknown[]): unknown[] {
  return method.converters.map((converter, index) => converter.convert(args[index], index));
}
