import { OrderMailKind } from '../order-mail.schema';

/** The built-in German templates; the same shape and data as the English ones (`en.ts`). */
export const DE: Record<OrderMailKind, string> = {
  [OrderMailKind.PLACED]: `Ihre Bestellung {{orderId}}

Hallo {{buyerName}},

vielen Dank für Ihre Bestellung {{orderId}} bei {{sellerName}}:

{{#each items}}
- {{quantity}} x {{name}}: {{total}}
{{/each}}

Waren: {{goods}}
{{#if shipping}}Versand: {{shipping}}
{{/if}}MwSt.: {{tax}}
Gesamt: {{total}}
{{#if shipTo}}

Lieferadresse:
{{#each shipTo}}
{{this}}
{{/each}}
{{/if}}

Wir schreiben Ihnen wieder, sobald die Zahlung eingegangen ist.
`,
  [OrderMailKind.PAID]: `Zahlung für Bestellung {{orderId}} erhalten

Hallo {{buyerName}},

wir haben Ihre Zahlung von {{total}} für die Bestellung {{orderId}} erhalten. Ihre Rechnung finden Sie im Anhang.
{{sellerName}} versendet Ihre Bestellung in Kürze.
`,
  [OrderMailKind.SHIPPED]: `Bestellung {{orderId}} wurde versandt

Hallo {{buyerName}},

Ihre Bestellung {{orderId}} bei {{sellerName}} ist unterwegs.
{{#if trackingNumber}}

Versanddienst: {{carrier}}
Sendungsnummer: {{trackingNumber}}
{{/if}}
`,
  [OrderMailKind.DELIVERED]: `Bestellung {{orderId}} wurde zugestellt

Hallo {{buyerName}},

Ihre Bestellung {{orderId}} bei {{sellerName}} wurde zugestellt. Viel Freude damit!
`,
  [OrderMailKind.CANCELED]: `Bestellung {{orderId}} wurde storniert

Hallo {{buyerName}},

Ihre Bestellung {{orderId}} bei {{sellerName}} wurde storniert.
{{#if refundAmount}}
{{refundAmount}} wurden Ihrer Karte gutgeschrieben.
{{/if}}
`,
  [OrderMailKind.REFUNDED]: `Erstattung für Bestellung {{orderId}}

Hallo {{buyerName}},

{{refundAmount}} der Bestellung {{orderId}} wurden Ihrer Karte gutgeschrieben.
`,
  [OrderMailKind.SELLER_PAID]: `Bezahlte Bestellung {{orderId}} versenden

Hallo {{sellerName}},

die Bestellung {{orderId}} von {{buyerName}} ist bezahlt ({{total}}). Bitte versenden Sie:

{{#each items}}
- {{quantity}} x {{name}}
{{/each}}
{{#if shipTo}}

an:
{{#each shipTo}}
{{this}}
{{/each}}
{{/if}}
`,
};
