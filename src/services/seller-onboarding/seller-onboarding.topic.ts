import { Injectable, OnModuleInit } from '@nestjs/common';
import { TopicAuthorizer } from '../../realtime/auth/topic-authorizer';
import { EventPublisher } from '../../realtime/event-publisher';
import { SellerApplicationView } from './seller-application.view';

/** New and decided applications, for ADMINs. */
export const APPLICATIONS_TOPIC = '/topic/seller-applications';
/** The applicant's own: `/topic/seller-onboarding/{userId}`, that user (or an ADMIN) only. */
export const applicantTopic = (userId: string) => `/topic/seller-onboarding/${userId}`;

/** Publishes `seller-application.submitted | approved | rejected` with the application as `data`. */
@Injectable()
export class SellerOnboardingTopic implements OnModuleInit {
  constructor(
    private readonly authorizer: TopicAuthorizer,
    private readonly events: EventPublisher,
  ) {}

  onModuleInit(): void {
    this.authorizer.register(APPLICATIONS_TOPIC, () => false);
    this.authorizer.register('/topic/seller-onboarding/{userId}', (principal, { userId }) => principal.id === userId);
  }

  changed(event: 'submitted' | 'approved' | 'rejected', application: SellerApplicationView): void {
    const live = { event: `seller-application.${event}`, id: application.id, data: application };
    this.events.publish(APPLICATIONS_TOPIC, live);
    this.events.publish(applicantTopic(application.userId), live);
  }
}
