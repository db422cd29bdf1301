import { INTERFACE_VERSION } from './openapi';

interface RequestDestination {
  address: `/request/${string}`;
  key: string;
  message: string;
  fields: Record<string, Record<string, unknown>>;
  required: string[];
}

interface BrokerDestination {
  address: string;
  key: string;
  description: string;
  message: 'Reply' | 'LiveEvent';
}

const PARAMETERS: Record<string, { description: string }> = {
  site: { description: 'site id (Site-Context of the request)' },
  sharedEndpoint: { description: 'the sharedEndpoint of the request' },
  id: { description: 'id of the job, order or customer' },
};

const ROUTING_FIELDS = {
  actionId: { type: ['string', 'number'], description: 'correlation id, echoed in the reply' },
  eventType: {
    type: 'string',
    enum: ['USER', 'GLOBAL', 'SHARED'],
    default: 'USER',
    description: 'where the reply goes',
  },
  sharedEndpoint: { type: 'string', description: 'with SHARED: the reply goes to /topic/<sharedEndpoint>' },
};

/** Application destinations clients SEND to (DESIGN §5). Only those the running app handles are documented. */
const REQUEST_DESTINATIONS: readonly RequestDestination[] = [
  {
    address: '/request/bean',
    key: 'requestBean',
    message: 'BeanRequestMessage',
    fields: {
      beanId: { type: 'string' },
      functionName: { type: 'string' },
      args: { type: 'array' },
      scope: { type: 'string', enum: ['PROTOTYPE', 'SINGLETON'] },
    },
    required: ['beanId', 'functionName', 'args'],
  },
  {
    address: '/request/repository',
    key: 'requestRepository',
    message: 'RepositoryRequestMessage',
    fields: {
      repositoryId: { type: 'string' },
      requestType: { type: 'string' },
      page: { type: 'integer' },
      size: { type: 'integer' },
      id: { type: 'string' },
      entity: { type: 'object' },
    },
    required: ['repositoryId', 'requestType'],
  },
  {
    address: '/request/document',
    key: 'requestDocument',
    message: 'DocumentRequestMessage',
    fields: {
      databaseName: { type: 'string' },
      collectionName: { type: 'string' },
      requestType: { type: 'string' },
      filter: { type: 'object' },
      document: { type: 'object' },
    },
    required: ['databaseName', 'collectionName', 'requestType'],
  },
  ...(['json', 'render'] as const).map((channel) => ({
    address: `/request/${channel}` as const,
    key: `request${channel === 'json' ? 'Json' : 'Render'}`,
    message: 'BasicRequestMessage',
    fields: { path: { type: 'string' }, payload: {}, elements: { type: 'array' } },
    required: [],
  })),
];

/** Broker destinations clients SUBSCRIBE to. */
const BROKER_DESTINATIONS: readonly BrokerDestination[] = [
  {
    address: '/user/topic/{site}/json',
    key: 'userJson',
    message: 'Reply',
    description: "Replies to the sender's requests (eventType USER, and every error reply)",
  },
  {
    address: '/user/topic/{site}/render',
    key: 'userRender',
    message: 'Reply',
    description: "Rendered pages for the sender's /request/render",
  },
  {
    address: '/topic/{site}/json',
    key: 'siteJson',
    message: 'Reply',
    description: 'Replies of requests sent with eventType GLOBAL',
  },
  {
    address: '/topic/{site}/render',
    key: 'siteRender',
    message: 'Reply',
    description: 'Rendered pages sent with eventType GLOBAL',
  },
  {
    address: '/topic/{sharedEndpoint}',
    key: 'shared',
    message: 'Reply',
    description: 'Replies of requests sent with eventType SHARED',
  },
  {
    address: '/topic/catalogue',
    key: 'catalogue',
    message: 'LiveEvent',
    description:
      'Catalogue changes for everyone, guests included: `offer.changed` with the offer (id, sellerId, skuId, ' +
      'productId, price, currency, active, quantity available) after a seller or an ADMIN created or changed it; ' +
      "the operator's changes through catalogueAdminServiceImpl as `category.*`, `attribute.*` (with the entity), " +
      '`product.created|updated|published|unpublished|deleted` (the product while published, else only its id) ' +
      'and `sku.*` (ids of the SKU and its product)',
  },
  { address: '/topic/jobs', key: 'jobs', message: 'LiveEvent', description: 'Every job change (ADMIN)' },
  { address: '/topic/job/{id}', key: 'job', message: 'LiveEvent', description: 'Changes of one job (ADMIN)' },
  {
    address: '/topic/order/{id}',
    key: 'order',
    message: 'LiveEvent',
    description: "Status of one order (the order's buyer, seller or an ADMIN)",
  },
  {
    address: '/topic/seller/{id}/orders',
    key: 'sellerOrders',
    message: 'LiveEvent',
    description: "A seller's new, paid and canceled orders as `order.status` (the user acting for it or an ADMIN)",
  },
  {
    address: '/topic/customer/{id}',
    key: 'customer',
    message: 'LiveEvent',
    description: 'Activity of one customer (that customer or an ADMIN)',
  },
  {
    address: '/topic/users',
    key: 'users',
    message: 'LiveEvent',
    description: 'Accounts changed by operators: user.created, user.disabled, user.enabled, user.role (ADMIN)',
  },
  {
    address: '/topic/seller-applications',
    key: 'sellerApplications',
    message: 'LiveEvent',
    description: 'Seller applications submitted, approved or rejected (ADMIN)',
  },
  {
    address: '/topic/seller-onboarding/{userId}',
    key: 'sellerOnboarding',
    message: 'LiveEvent',
    description:
      "The applicant's own applications and their decisions, with the reason of a rejection (that user or an ADMIN)",
  },
];

/**
 * The AsyncAPI 3.0 document of the STOMP interface, from the server's point of view: it receives on `/request/**`
 * and sends on broker destinations.
 * @param handles whether the running app serves an application destination
 * @param host `host:port` clients connect to
 */
export function buildAsyncApiDocument(
  handles: (destination: string) => boolean,
  host: string,
): Record<string, unknown> {
  const requests = REQUEST_DESTINATIONS.filter((d) => handles(d.address));
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Content and Commerce Backend: STOMP destinations',
      version: INTERFACE_VERSION,
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      description:
        'STOMP 1.0-1.2. CONNECT may carry `Authorization: Bearer <token>` (else GUEST); `Lang-Context` and `Site-Context` come from SEND, else CONNECT.',
    },
    defaultContentType: 'application/json',
    servers: {
      websocket: { host, pathname: '/ws', protocol: 'ws', description: 'native WebSocket' },
      sockjs: { host, pathname: '/sock', protocol: 'http', description: 'SockJS fallback' },
    },
    channels: Object.fromEntries([...requests.map(requestChannel), ...BROKER_DESTINATIONS.map(brokerChannel)]),
    operations: Object.fromEntries([
      ...requests.map((d) => [
        `receive${capitalize(d.key)}`,
        { action: 'receive', channel: { $ref: `#/channels/${d.key}` } },
      ]),
      ...BROKER_DESTINATIONS.map((d) => [
        `send${capitalize(d.key)}`,
        { action: 'send', channel: { $ref: `#/channels/${d.key}` } },
      ]),
    ]),
    components: { messages: messages(requests) },
  };
}

function requestChannel(d: RequestDestination): [string, object] {
  return [d.key, { address: d.address, messages: { [d.message]: { $ref: `#/components/messages/${d.message}` } } }];
}

function brokerChannel(d: BrokerDestination): [string, object] {
  const names = [...d.address.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  return [
    d.key,
    {
      address: d.address,
      description: d.description,
      ...(names.length ? { parameters: Object.fromEntries(names.map((name) => [name, PARAMETERS[name]])) } : {}),
      messages: { [d.message]: { $ref: `#/components/messages/${d.message}` } },
    },
  ];
}

function messages(requests: RequestDestination[]): Record<string, object> {
  const requestMessages = requests.map((d): [string, object] => [
    d.message,
    { payload: { type: 'object', required: d.required, properties: { ...d.fields, ...ROUTING_FIELDS } } },
  ]);
  return {
    ...Object.fromEntries(requestMessages),
    Reply: {
      description:
        'Success `{actionId, status, payload}`; failure `{actionId, status, error, message, ...}` as the REST error body',
      payload: {
        type: 'object',
        required: ['status'],
        properties: {
          actionId: {},
          status: { type: 'integer' },
          payload: {},
          error: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
    LiveEvent: {
      payload: {
        type: 'object',
        required: ['event', 'id', 'data', 'timestamp'],
        properties: {
          event: { type: 'string', examples: ['job.updated', 'order.status', 'customer.activity'] },
          id: { type: 'string' },
          data: {},
          timestamp: { type: 'string', format: 'date-time' },
        },
      },
    },
  };
}

function capitalize(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}
