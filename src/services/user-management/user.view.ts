import { AccountRecord } from '../../auth/users/user-accounts';
import { Role } from '../../common/principal';

/** An account as an operator sees it: never the password hash or the token version. */
export interface UserView {
  id: string;
  username: string;
  email: string;
  role: Role;
  verified: boolean;
  disabled: boolean;
  createdAt: string | null;
}

export function toUserView(account: AccountRecord): UserView {
  return {
    id: String(account._id),
    username: account.username,
    email: account.email,
    role: account.role,
    verified: account.verified,
    disabled: account.disabled,
    createdAt: account.createdAt?.toISOString() ?? null,
  };
}
