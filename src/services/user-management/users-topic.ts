import { Injectable, OnModuleInit } from '@nestjs/common';
import { TopicAuthorizer } from '../../realtime/auth/topic-authorizer';
import { EventPublisher } from '../../realtime/event-publisher';
import { UserView } from './user.view';

export const USERS_TOPIC = '/topic/users';

/** `/topic/users`: account changes made by operators, for ADMINs only (it names every account it reports). */
@Injectable()
export class UsersTopic implements OnModuleInit {
  constructor(
    private readonly authorizer: TopicAuthorizer,
    private readonly events: EventPublisher,
  ) {}

  onModuleInit(): void {
    this.authorizer.register(USERS_TOPIC, () => false);
  }

  /** `{event: 'user.created' | 'user.disabled' | 'user.enabled' | 'user.role', id, data: user, timestamp}`. */
  changed(event: string, user: UserView): void {
    this.events.publish(USERS_TOPIC, { event, id: user.id, data: user });
  }
}
