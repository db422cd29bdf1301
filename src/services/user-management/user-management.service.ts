import { BadRequestException, ConflictException, NotFoundException, OnModuleInit } from '@nestjs/common';
import { AuditTrail } from '../../audit/audit-trail';
import { AccessChange, UserAccounts } from '../../auth/users/user-accounts';
import { SessionStore } from '../../auth/sessions/session-store';
import { Bean, Exposed, MapOf } from '../../bean';
import { Page, toPage } from '../../common/page';
import { Role } from '../../common/principal';
import { LiveSessions } from '../../realtime/session/live-sessions';
import { ClusterSignals } from '../../shared-state/cluster-signals';
import { ACCOUNT_ROLES, AccountRole, NewUserDto, UserSearchDto } from './user-management.dto';
import { toUserView, UserView } from './user.view';
import { UsersTopic } from './users-topic';

/** The notice to the other instances that an account's access changed (its id): they end its live sessions. */
const ACCESS_CHANGED = 'user.access-changed';

/**
 * `userManagementServiceImpl` (ADMIN): operators list, create, disable and enable accounts and change their role.
 * The last enabled ADMIN can be neither disabled nor demoted (409), so the shop is never left without an operator.
 * Disabling or demoting an account ends its live STOMP sessions at once on every instance (a notice through Redis,
 * {@link ClusterSignals}); without Redis, other instances end them at their next `STOMP_REVERIFY_MS` check.
 */
@Bean('userManagementServiceImpl', Role.ADMIN)
export class UserManagementService implements OnModuleInit {
  constructor(
    private readonly users: UserAccounts,
    private readonly sessions: SessionStore,
    private readonly liveSessions: LiveSessions,
    private readonly topic: UsersTopic,
    private readonly audit: AuditTrail,
    private readonly signals: ClusterSignals,
  ) {}

  @Exposed([MapOf(UserSearchDto)])
  async listUsers(query: UserSearchDto): Promise<Page<UserView>> {
    const { search, role, disabled, page, size } = query;
    const { content, total } = await this.users.search({ text: search, role, disabled }, page, size);
    return toPage(content.map(toUserView), total, page, size);
  }

  /** 404 for a malformed or unknown id. */
  @Exposed(['String'])
  async getUser(userId: string): Promise<UserView> {
    const account = await this.users.findAccount(userId);
    if (!account) throw new NotFoundException(`User ${userId} not found`);
    return toUserView(account);
  }

  /** A verified, enabled account; 409 when the username or e-mail address is taken. */
  @Exposed([MapOf(NewUserDto)])
  async createUser(user: NewUserDto): Promise<UserView> {
    const created = await this.users.create({ ...user, verified: true });
    const view = await this.getUser(String(created._id));
    await this.record('user.create', view, { username: view.username, email: view.email, role: view.role });
    this.topic.changed('user.created', view);
    return view;
  }

  /** Ends the account's sessions, tokens and live STOMP sessions at once. */
  @Exposed(['String'])
  async disableUser(userId: string): Promise<UserView> {
    const view = await this.change(userId, { disabled: true });
    await this.sessions.destroyAllOf(userId);
    await this.endLiveSessions(userId);
    await this.record('user.disable', view);
    this.topic.changed('user.disabled', view);
    return view;
  }

  /** The account can log in again; tokens issued before it was disabled stay refused. */
  @Exposed(['String'])
  async enableUser(userId: string): Promise<UserView> {
    const view = await this.change(userId, { disabled: false });
    await this.record('user.enable', view);
    this.topic.changed('user.enabled', view);
    return view;
  }

  /** `role`: `USER` or `ADMIN`. The account's tokens end (they carry the old role); it logs in again. */
  @Exposed(['String', 'String'])
  async changeRole(userId: string, role: string): Promise<UserView> {
    const view = await this.change(userId, { role: accountRole(role) });
    await this.endLiveSessions(userId);
    await this.record('user.change-role', view, { role: view.role });
    this.topic.changed('user.role', view);
    return view;
  }

  onModuleInit(): void {
    this.signals.on(ACCESS_CHANGED, (userId) => this.endLiveSessionsHere(userId));
  }

  /** The account's live STOMP sessions whose tokens no longer hold end now, on this instance and on the others. */
  private async endLiveSessions(userId: string): Promise<void> {
    this.liveSessions.reverifyUser(userId);
    await this.signals.send(ACCESS_CHANGED, userId);
  }

  private endLiveSessionsHere(userId: string): void {
    this.users.forgetAccessState(userId);
    this.liveSessions.reverifyUser(userId);
  }

  private record(action: string, user: UserView, details?: Record<string, unknown>): Promise<void> {
    return this.audit.record({ action, target: { type: 'user', id: user.id }, details });
  }

  private async change(userId: string, change: AccessChange): Promise<UserView> {
    const result = await this.users.changeAccess(userId, change);
    switch (result.outcome) {
      case 'not-found':
        throw new NotFoundException(`User ${userId} not found`);
      case 'last-admin':
        throw new ConflictException('The last enabled admin can be neither disabled nor demoted');
      case 'changed':
        return toUserView(result.account);
    }
  }
}

function accountRole(role: string): AccountRole {
  const found = ACCOUNT_ROLES.find((known) => known === role);
  if (!found) throw new BadRequestException(`role must be one of ${ACCOUNT_ROLES.join(', ')}`);
  return found;
}
