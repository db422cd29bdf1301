import { Injectable, OnModuleInit } from '@nestjs/common';
import { EVERYONE, TopicAuthorizer } from '../../realtime/auth/topic-authorizer';
import { EventPublisher } from '../../realtime/event-publisher';
import { PublicOfferView } from './seller-offer.view';

export const CATALOGUE_TOPIC = '/topic/catalogue';

/**
 * `/topic/catalogue`: catalogue changes as they happen, for everyone (guests included). It is registered as
 * protected so that only the server publishes on it: no client can `SEND` or address a SHARED reply to it.
 */
@Injectable()
export class CatalogueTopic implements OnModuleInit {
  constructor(
    private readonly authorizer: TopicAuthorizer,
    private readonly events: EventPublisher,
  ) {}

  onModuleInit(): void {
    this.authorizer.register(CATALOGUE_TOPIC, EVERYONE);
  }

  /** `{event: 'offer.changed', id, data: offer, timestamp}` after an offer was created or changed. */
  offerChanged(offer: PublicOfferView): void {
    this.events.publish(CATALOGUE_TOPIC, { event: 'offer.changed', id: offer.id, data: offer });
  }

  /** `{event, id, data, timestamp}` after an operator changed the catalogue (`product.published`, `sku.deleted`, …). */
  catalogueChanged(event: string, id: string, data: unknown): void {
    this.events.publish(CATALOGUE_TOPIC, { event, id, data });
  }
}
