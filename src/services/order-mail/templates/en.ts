import { OrderMailKind } from '../order-mail.schema';

/**
 * The built-in English templates (Handlebars, plain text): the first line is the subject, the rest after the blank
 * line the body. The data they may use is `OrderMailData` (`order-mail-data.ts`).
 */
export const EN: Record<OrderMailKind, string> = {
  [OrderMailKind.PLACED]: `Your order {{orderId}}

Hello {{buyerName}},

thank you for your order {{orderId}} from {{sellerName}}:

{{#each items}}
- {{quantity}} x {{name}}: {{total}}
{{/each}}

Goods: {{goods}}
{{#if shipping}}Shipping: {{shipping}}
{{/if}}Tax: {{tax}}
Total: {{total}}
{{#if shipTo}}

It will be shipped to:
{{#each shipTo}}
{{this}}
{{/each}}
{{/if}}

We will write again once it is paid.
`,
  [OrderMailKind.PAID]: `Payment received for order {{orderId}}

Hello {{buyerName}},

we have received your payment of {{total}} for order {{orderId}}. Your invoice is attached.
{{sellerName}} will ship your order soon.
`,
  [OrderMailKind.SHIPPED]: `Order {{orderId}} has been shipped

Hello {{buyerName}},

your order {{orderId}} from {{sellerName}} is on its way.
{{#if trackingNumber}}

Carrier: {{carrier}}
Tracking number: {{trackingNumber}}
{{/if}}
`,
  [OrderMailKind.DELIVERED]: `Order {{orderId}} has been delivered

Hello {{buyerName}},

your order {{orderId}} from {{sellerName}} has been delivered. Enjoy it!
`,
  [OrderMailKind.CANCELED]: `Order {{orderId}} has been canceled

Hello {{buyerName}},

your order {{orderId}} from {{sellerName}} has been canceled.
{{#if refundAmount}}
{{refundAmount}} has been refunded to your card.
{{/if}}
`,
  [OrderMailKind.REFUNDED]: `Refund for order {{orderId}}

Hello {{buyerName}},

{{refundAmount}} of order {{orderId}} has been refunded to your card.
`,
  [OrderMailKind.SELLER_PAID]: `Paid order {{orderId}} to ship

Hello {{sellerName}},

order {{orderId}} by {{buyerName}} has been paid ({{total}}). Please ship:

{{#each items}}
- {{quantity}} x {{name}}
{{/each}}
{{#if shipTo}}

to:
{{#each shipTo}}
{{this}}
{{/each}}
{{/if}}
`,
};
