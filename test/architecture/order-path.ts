import { importGraph } from './import-cycles';
import { SourceFile } from './model-ownership';

/**
 * How one hop of the order path leaves a file, found by its name in the code:
 * - `call` `Class.method`: the source calls `.method(` and imports the file declaring `Class` (or, with `as`, the
 *   class it is bound as, e.g. a provider's abstract class), and the target declares `class Class` with `method`;
 * - `event` `name`: the source emits through `DomainEvents` and names the event, the target has
 *   `@OnDomainEvent('name')`;
 * - `http` `route`: the source names the route (a path or its constant), the target is the controller declared with it.
 */
export interface Hop {
  from: string;
  to: string;
  via: 'call' | 'event' | 'http';
  name: string;
  as?: string;
  /** What happens to the order there, for the reader. */
  what: string;
}

export const DOMAIN_EVENTS_FILE = 'src/events/domain-events.ts';

/** The files a walk crosses, in the order it first reaches them; the event bus counts when an event is a hop. */
export function filesOf(walk: readonly Hop[]): string[] {
  const files = walk.flatMap((hop) =>
    hop.via === 'event' ? [hop.from, DOMAIN_EVENTS_FILE, hop.to] : [hop.from, hop.to],
  );
  return [...new Set(files)];
}

/** The hops of `walk` that the code does not show, each with why; empty when every hop is found by its name. */
export function missingHops(walk: readonly Hop[], sources: SourceFile[]): string[] {
  const byPath = new Map(sources.map((file) => [file.path, file.text]));
  const imports = importGraph(sources);
  return walk.flatMap((hop) => {
    const from = byPath.get(hop.from);
    const to = byPath.get(hop.to);
    if (from === undefined || to === undefined) return [`${describe(hop)}: no such file`];
    const problem = CHECKS[hop.via](hop, from, to, { imports, byPath });
    return problem ? [`${describe(hop)}: ${problem}`] : [];
  });
}

interface Code {
  imports: Map<string, string[]>;
  byPath: Map<string, string>;
}

const CHECKS: Record<Hop['via'], (hop: Hop, from: string, to: string, code: Code) => string | undefined> = {
  call: (hop, from, to, code) => {
    const [className, method] = hop.name.split('.');
    if (!new RegExp(`class ${className}\\b`).test(to)) return `the target declares no class ${className}`;
    if (!new RegExp(`^\\s+(?:async\\s+)?${method}\\s*[(<]`, 'm').test(to)) return `${className} has no ${method}`;
    if (!from.includes(`.${method}(`)) return `the source never calls .${method}(`;
    const declaring = hop.as ? declaringFile(hop.as, code.byPath) : hop.to;
    if (hop.as && !to.includes(`extends ${hop.as}`)) return `${className} does not extend ${hop.as}`;
    return declaring && reaches(hop.from, declaring, code.imports) ? undefined : 'the source does not import it';
  },
  event: (hop, from, to, code) => {
    if (!(code.imports.get(hop.from) ?? []).includes(DOMAIN_EVENTS_FILE)) return 'the source does not use DomainEvents';
    if (!from.includes(`'${hop.name}'`)) return `the source never names '${hop.name}'`;
    return to.includes(`@OnDomainEvent('${hop.name}')`) ? undefined : `the target does not listen to '${hop.name}'`;
  },
  http: (hop, from, to) => {
    if (!from.includes(hop.name)) return `the source never names ${hop.name}`;
    return new RegExp(`@Controller\\([^)]*${hop.name}`).test(to)
      ? undefined
      : `the target is not the ${hop.name} controller`;
  },
};

function describe(hop: Hop): string {
  return `${hop.from} → ${hop.to} (${hop.via} ${hop.name})`;
}

function declaringFile(className: string, byPath: Map<string, string>): string | undefined {
  return [...byPath].find(([, text]) => new RegExp(`export (?:abstract )?class ${className}\\b`).test(text))?.[0];
}

/** Whether `from` imports `target`, directly or through index files that re-export it. */
function reaches(from: string, target: string, imports: Map<string, string[]>): boolean {
  const direct = imports.get(from) ?? [];
  if (direct.includes(target)) return true;
  return direct.filter((file) => file.endsWith('/index.ts')).some((index) => reaches(index, target, imports));
}

/** The walk as the README shows it: the hops in order, then the files crossed, one line each. */
export function renderWalk(walk: readonly Hop[], files: Readonly<Record<string, string>>): string {
  const short = (path: string) => `\`${path.replace(/^src\//, '')}\``;
  const hops = walk.map(
    (hop, i) => `| ${i + 1} | ${short(hop.from)} | ${hop.via} \`${hop.name}\` | ${short(hop.to)} | ${hop.what} |`,
  );
  const crossed = filesOf(walk).map((path, i) => `${i + 1}. ${short(path)}: ${files[path]}`);
  return [
    '| # | From | Hop | To | What happens |',
    '|---|---|---|---|---|',
    ...hops,
    '',
    `Files crossed (${crossed.length}), in the order the walk first reaches them:`,
    '',
    ...crossed,
  ].join('\n');
}
