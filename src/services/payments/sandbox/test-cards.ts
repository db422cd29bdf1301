/** How a sandbox test card behaves when charged. */
export enum CardBehaviour {
  SUCCEED = 'SUCCEED',
  DECLINE = 'DECLINE',
  INSUFFICIENT_FUNDS = 'INSUFFICIENT_FUNDS',
  THREE_D_SECURE = 'THREE_D_SECURE',
}

export interface TestCard {
  brand: string;
  behaviour: CardBehaviour;
}

/**
 * The sandbox accepts these numbers only (any future expiry, any 3-4 digit CVC), with deterministic outcomes;
 * the README lists them. Other numbers are refused when the card is tokenized, as a provider's test mode does.
 */
export const TEST_CARDS: ReadonlyMap<string, TestCard> = new Map([
  ['4242424242424242', { brand: 'visa', behaviour: CardBehaviour.SUCCEED }],
  ['5555555555554444', { brand: 'mastercard', behaviour: CardBehaviour.SUCCEED }],
  ['4000000000000002', { brand: 'visa', behaviour: CardBehaviour.DECLINE }],
  ['4000000000009995', { brand: 'visa', behaviour: CardBehaviour.INSUFFICIENT_FUNDS }],
  ['4000000000003220', { brand: 'visa', behaviour: CardBehaviour.THREE_D_SECURE }],
]);

/** Ready-made payment method ids, usable without tokenizing a card first. */
export const TEST_PAYMENT_METHODS: ReadonlyMap<string, string> = new Map([
  ['pm_card_visa', '4242424242424242'],
  ['pm_card_mastercard', '5555555555554444'],
  ['pm_card_chargeDeclined', '4000000000000002'],
  ['pm_card_insufficientFunds', '4000000000009995'],
  ['pm_card_threeDSecureRequired', '4000000000003220'],
]);

export const FAILURE_CODES: Partial<Record<CardBehaviour, string>> = {
  [CardBehaviour.DECLINE]: 'card_declined',
  [CardBehaviour.INSUFFICIENT_FUNDS]: 'insufficient_funds',
};
