import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config';
import { TopicAuthorizer } from './auth/topic-authorizer';
import { InMemoryBroker } from './broker/in-memory-broker';
import { MessageBroker } from './broker/message-broker';
import { RelayBroker } from './broker/relay-broker';
import { DocumentRequestHandler } from './storage/document-request.handler';
import { RepositoryRegistry } from '../common/repository-registry';
import { RepositoryRequestHandler } from './storage/repository-request.handler';
import { EventPublisher } from './event-publisher';
import { BeanRequestHandler } from './requests/bean-request.handler';
import { ReplySender } from './requests/reply-sender';
import { RequestDispatcher } from './requests/request-dispatcher';
import { RequestHandlerRegistry } from './requests/request-handler-registry';
import { ConnectHandler } from './session/connect-handler';
import { HeartbeatMonitor } from './session/heartbeat-monitor';
import { LiveSessions } from './session/live-sessions';
import { SendHandler } from './session/send-handler';
import { StompProtocol } from './session/stomp-protocol';
import { SubscriptionHandler } from './session/subscription-handler';
import { ClientAddresses } from './transport/client-addresses';
import { SockJsServer } from './transport/sockjs-server';
import { StompWsGateway } from './transport/stomp-ws.gateway';

/**
 * STOMP over WebSocket (`/ws`, a gateway: needs `StompWsAdapter`, which `createApp` sets) and SockJS (`/sock`),
 * the in-process broker and the `/request/**` destinations.
 * Global: any module may inject {@link EventPublisher}, register topic rules with {@link TopicAuthorizer},
 * application destinations with {@link RequestHandlerRegistry} and models with {@link RepositoryRegistry}, and
 * check the open sessions of a user again with {@link LiveSessions}.
 */
@Global()
@Module({
  providers: [
    {
      provide: MessageBroker,
      inject: [AppConfig],
      useFactory: ({ stomp: { relayUrl, relayNamespace, relayBufferSize } }: AppConfig) =>
        relayUrl ? new RelayBroker(relayUrl, relayNamespace, relayBufferSize) : new InMemoryBroker(),
    },
    EventPublisher,
    TopicAuthorizer,
    RequestHandlerRegistry,
    ReplySender,
    RequestDispatcher,
    BeanRequestHandler,
    RepositoryRegistry,
    RepositoryRequestHandler,
    DocumentRequestHandler,
    HeartbeatMonitor,
    ConnectHandler,
    SubscriptionHandler,
    SendHandler,
    StompProtocol,
    { provide: LiveSessions, useExisting: StompProtocol },
    StompWsGateway,
    SockJsServer,
    ClientAddresses,
  ],
  exports: [EventPublisher, MessageBroker, TopicAuthorizer, RequestHandlerRegistry, RepositoryRegistry, LiveSessions],
})
export class RealtimeModule {}
