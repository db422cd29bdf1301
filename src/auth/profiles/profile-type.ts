export enum ProfileType {
  BUYER = 'BUYER',
  SELLER = 'SELLER',
  COMPANY = 'COMPANY',
}
