/** Roles, ordered GUEST < USER < ADMIN. */
export enum Role {
  GUEST = 'GUEST',
  USER = 'USER',
  ADMIN = 'ADMIN',
}

export const roleRank: Record<Role, number> = {
  [Role.GUEST]: 0,
  [Role.USER]: 1,
  [Role.ADMIN]: 2,
};

/** True when `actual` is at least `required` in the order GUEST < USER < ADMIN. */
export function hasRole(actual: Role, required: Role): boolean {
  return roleRank[actual] >= roleRank[required];
}

/** The authenticated caller, taken from a verified token or session. */
export interface Principal {
  id: string;
  username: string;
  role: Role;
  jti?: string;
  /** Expiry in seconds since the epoch (the JWT `exp` claim). */
  exp?: number;
}
