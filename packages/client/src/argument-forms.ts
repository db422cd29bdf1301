/**
 * How `args` travels in the call envelope (all three mean the same call to the server):
 * `positional` `['a', 5]`, `indexed` `[{ "0": "a", "1": 5 }]`, `indexed-split` `[{ "0": "a" }, { "1": 5 }]`.
 */
export type ArgumentForm = 'positional' | 'indexed' | 'indexed-split';

export function toArgumentForm(args: readonly unknown[], form: ArgumentForm): unknown[] {
  if (form === 'positional' || args.length === 0) return [...args];
  const entries = args.map((value, index) => ({ [String(index)]: value }));
  return form === 'indexed-split' ? entries : [Object.assign({}, ...entries)];
}
