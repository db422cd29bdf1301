/** Where alternative payment providers send their signed webhooks. */
export const ALT_PAYMENT_WEBHOOK_PATH = '/api/v1/altpayment/webhook';
