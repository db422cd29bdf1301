import { Injectable, OnModuleInit } from '@nestjs/common';
import { TopicAuthorizer } from '../../realtime/auth/topic-authorizer';
import { OrderRepository } from './order.repository';

/** `/topic/order/{id}` may be followed by the order's buyer, the user acting for its seller, or an ADMIN. */
@Injectable()
export class OrderTopic implements OnModuleInit {
  constructor(
    private readonly authorizer: TopicAuthorizer,
    private readonly store: OrderRepository,
  ) {}

  onModuleInit(): void {
    this.authorizer.register('/topic/order/{id}', (principal, { id }) => this.store.isParty(id, principal.id));
  }
}
