import { Injectable } from '@nestjs/common';
import { Principal, Role } from '../../common/principal';

/** Decides whether an authenticated, non-ADMIN principal may follow a protected topic. */
export type TopicRule = (principal: Principal, params: Readonly<Record<string, string>>) => boolean | Promise<boolean>;

interface CompiledRule {
  regex: RegExp;
  names: string[];
  rule: TopicRule;
}

const NOBODY_BUT_ADMIN: TopicRule = () => false;

/**
 * A topic everyone may follow, guests included, that is still protected: only the server publishes on it (no
 * client `SEND`, no SHARED reply can be addressed to it), so its events cannot be forged.
 */
export const EVERYONE: TopicRule = () => true;

/**
 * Who may subscribe to which `/topic/**` destination (DESIGN §5). A pattern such as `/topic/order/{id}` protects
 * that topic and everything below it; topics no pattern matches are public. ADMIN passes every rule, a guest
 * none. Modules register their rules at start-up, replacing the defaults here (orders start as ADMIN-only
 * until the order module says who the buyer and seller are).
 */
@Injectable()
export class TopicAuthorizer {
  private readonly rules = new Map<string, CompiledRule>();

  constructor() {
    this.register('/topic/order/{id}', NOBODY_BUT_ADMIN);
    this.register('/topic/customer/{id}', (principal, { id }) => principal.id === id);
    this.register('/topic/jobs', NOBODY_BUT_ADMIN);
    this.register('/topic/job/{id}', NOBODY_BUT_ADMIN);
  }

  /**
   * @example authorizer.register('/topic/order/{id}', (p, { id }) => orders.isBuyerOrSeller(id, p.id));
   */
  register(pattern: string, rule: TopicRule): void {
    this.rules.set(pattern, compile(pattern, rule));
  }

  isProtected(destination: string): boolean {
    return this.match(destination) !== undefined;
  }

  mayFollow(principal: Principal | null, destination: string): boolean | Promise<boolean> {
    const match = this.match(destination);
    if (!match || match.rule === EVERYONE) return true;
    if (!principal) return false;
    if (principal.role === Role.ADMIN) return true;
    return match.rule(principal, match.params);
  }

  private match(destination: string): { rule: TopicRule; params: Record<string, string> } | undefined {
    for (const { regex, names, rule } of this.rules.values()) {
      const found = regex.exec(destination);
      if (found) return { rule, params: Object.fromEntries(names.map((name, i) => [name, found[i + 1]])) };
    }
    return undefined;
  }
}

function compile(pattern: string, rule: TopicRule): CompiledRule {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { regex: new RegExp(`^${source}(?:/.*)?$`), names, rule };
}
