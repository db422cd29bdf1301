import { Hop } from './order-path';

const O = 'src/services/orders';
const P = 'src/services/payments';

/**
 * An order from the buyer's checkout to PAID and its invoice, paid by a 3-D Secure card so that the provider's
 * webhook decides (issue 26): every hop a call, an event or a route found by its name.
 */
export const ORDER_PATH: readonly Hop[] = [
  {
    from: `${O}/orders.service.ts`,
    to: `${O}/order-checkout.ts`,
    via: 'call',
    name: 'OrderCheckout.checkout',
    what: '`orderServiceImpl.orderCheckout`: the buyer checks out their cart',
  },
  {
    from: `${O}/order-checkout.ts`,
    to: `${O}/order-placement.ts`,
    via: 'call',
    name: 'OrderPlacement.place',
    what: "under the buyer's checkout lock, the cart's lines and the default address",
  },
  {
    from: `${O}/order-placement.ts`,
    to: `${O}/order.repository.ts`,
    via: 'call',
    name: 'OrderRepository.insertDrafts',
    what: 'priced, shipping quoted, stock reserved: the order is stored NEW and its id is born',
  },
  {
    from: `${O}/order-placement.ts`,
    to: `${O}/order-transitions.ts`,
    via: 'call',
    name: 'OrderTransitions.placed',
    what: 'published on `/topic/order/{id}`',
  },
  {
    from: `${O}/order-transitions.ts`,
    to: `${O}/order-events.ts`,
    via: 'call',
    name: 'OrderEvents.placed',
    what: '`order.placed` (the confirmation mail; not followed here)',
  },
  {
    from: `${O}/order-placement.ts`,
    to: `${O}/order-transitions.ts`,
    via: 'call',
    name: 'OrderTransitions.move',
    what: 'approved at once by `system:auto-approval` (unless `ORDER_APPROVAL=manual`)',
  },
  {
    from: `${O}/order-transitions.ts`,
    to: `${O}/order.repository.ts`,
    via: 'call',
    name: 'OrderRepository.moveStatus',
    what: 'NEW → APPROVED, one conditional update',
  },
  {
    from: `${O}/orders.service.ts`,
    to: `${O}/order-checkout.ts`,
    via: 'call',
    name: 'OrderCheckout.digitalCheckout',
    what: '`digitalOrderCheckout({orderId, paymentMethodId})`: the buyer chooses a card',
  },
  {
    from: `${O}/order-checkout.ts`,
    to: `${O}/order.repository.ts`,
    via: 'call',
    name: 'OrderRepository.preparePayment',
    what: 'the card is set on the unpaid order',
  },
  {
    from: `${O}/orders.service.ts`,
    to: `${O}/order-payments.ts`,
    via: 'call',
    name: 'OrderPayments.pay',
    what: '`pay(orderId)`',
  },
  {
    from: `${O}/order-payments.ts`,
    to: `${O}/order-payment-flow.ts`,
    via: 'call',
    name: 'OrderPaymentFlow.begin',
    what: 'the payment state machine, shared with the alternative payments',
  },
  {
    from: `${O}/order-payment-flow.ts`,
    to: `${O}/order-transitions.ts`,
    via: 'call',
    name: 'OrderTransitions.move',
    what: 'APPROVED → PAYMENT_PENDING: a second `pay` meanwhile is a 409',
  },
  {
    from: `${O}/order-payments.ts`,
    to: `${P}/sandbox/card-payment-sandbox.ts`,
    via: 'call',
    name: 'CardPaymentSandbox.charge',
    as: 'CardPaymentProvider',
    what: 'the card provider (the sandbox here) is asked to charge; a 3-D Secure card needs the buyer',
  },
  {
    from: `${O}/order-payments.ts`,
    to: `${O}/order-payment-flow.ts`,
    via: 'call',
    name: 'OrderPaymentFlow.awaitDecision',
    what: "the order waits for the provider's decision",
  },
  {
    from: `${O}/order-payment-flow.ts`,
    to: `${O}/order.repository.ts`,
    via: 'call',
    name: 'OrderRepository.recordPaymentIntent',
    what: 'the intent it waits for is recorded',
  },
  {
    from: `${P}/sandbox/card-payment-sandbox.ts`,
    to: `${P}/sandbox/three-d-secure.controller.ts`,
    via: 'http',
    name: 'CHALLENGE_PATH',
    what: "the buyer's browser answers the challenge page (`nextActionUrl`)",
  },
  {
    from: `${P}/sandbox/three-d-secure.controller.ts`,
    to: `${P}/card-payment-webhook.controller.ts`,
    via: 'http',
    name: 'api/v1/cardpayment',
    what: 'the provider posts the signed `payment_intent.succeeded`',
  },
  {
    from: `${P}/card-payment-webhook.controller.ts`,
    to: `${O}/order-payments.ts`,
    via: 'event',
    name: 'payment.succeeded',
    what: 'signature checked, first delivery claimed (`WebhookReplayGuard`), the notice emitted',
  },
  {
    from: `${O}/order-payments.ts`,
    to: `${O}/order-payment-flow.ts`,
    via: 'call',
    name: 'OrderPaymentFlow.settle',
    what: "`OrderPayments.settle`: confirmed with the provider's own record of the intent",
  },
  {
    from: `${O}/order-payment-flow.ts`,
    to: `${O}/order-transitions.ts`,
    via: 'call',
    name: 'OrderTransitions.move',
    what: 'PAYMENT_PENDING → PAID by `system:card-sandbox`, only for this intent, amount and currency',
  },
  {
    from: `${O}/order-transitions.ts`,
    to: `${O}/order.repository.ts`,
    via: 'call',
    name: 'OrderRepository.moveStatus',
    what: 'the PAID write, with `invoiceDueAt` in the same update (the invoice is owed durably)',
  },
  {
    from: `${O}/order-transitions.ts`,
    to: `${O}/order-events.ts`,
    via: 'call',
    name: 'OrderEvents.moved',
    what: "published; then the move's domain event",
  },
  {
    from: `${O}/order-events.ts`,
    to: `${O}/buyer-invoice.ts`,
    via: 'event',
    name: 'order.paid',
    what: '`BuyerInvoice.issueOnPayment` (and the paid mails); `invoiceDueAt` removed once every listener succeeded',
  },
  {
    from: `${O}/buyer-invoice.ts`,
    to: 'src/services/accounting/invoices/invoice-issuer.ts',
    via: 'call',
    name: 'InvoiceIssuer.issue',
    what: "the invoice is numbered in the seller's series and stored, once per order",
  },
];

/** One line per file crossed, for the README. */
export const ORDER_PATH_FILES: Readonly<Record<string, string>> = {
  [`${O}/orders.service.ts`]: "the bean `orderServiceImpl`; maps the spec's calls to the collaborators",
  [`${O}/order-checkout.ts`]: "the buyer's ways to order: the cart, or a payment request",
  [`${O}/order-placement.ts`]: 'items become priced NEW orders with stock reserved, approved at checkout',
  [`${O}/order.repository.ts`]: 'the only writer of `orders`',
  [`${O}/order-transitions.ts`]: 'every status move: one conditional update, published, then its event',
  [`${O}/order-events.ts`]: 'the `order.*` events; `order.paid` delivered durably',
  'src/events/domain-events.ts': 'the bus: `DomainEvents.emit` runs every `@OnDomainEvent` listener of the name',
  [`${O}/order-payments.ts`]: "card payments: charge, and settle from the provider's notices",
  [`${O}/order-payment-flow.ts`]: 'the payment state machine: begin, wait, settle',
  [`${P}/sandbox/card-payment-sandbox.ts`]: 'the built-in card provider (`CardPaymentProvider`)',
  [`${P}/sandbox/three-d-secure.controller.ts`]: "the sandbox's 3-D Secure page, which sends the provider's webhook",
  [`${P}/card-payment-webhook.controller.ts`]:
    "`POST /api/v1/cardpayment`: the provider's signed notices, as domain events",
  [`${O}/buyer-invoice.ts`]: "the buyer's invoice of an order, issued on `order.paid`",
  'src/services/accounting/invoices/invoice-issuer.ts': 'issues numbered invoices and credit notes (PDF and register)',
};
