import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { isValidIban, passesLuhn } from './account-numbers';
import { BUSINESS_TYPES, MERCHANT_CATEGORY_CODES } from './business-catalogue';

/** Account numbers and codes are compared without spaces or dashes, in capitals. */
const compact = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.replace(/[\s-]+/g, '').toUpperCase() : value;

@ValidatorConstraint({ name: 'iban' })
class IbanConstraint implements ValidatorConstraintInterface {
  validate = (value: unknown) => typeof value === 'string' && isValidIban(value);
  defaultMessage = () => 'iban must be a valid IBAN (country, check digits and account number)';
}

@ValidatorConstraint({ name: 'luhn' })
class LuhnConstraint implements ValidatorConstraintInterface {
  validate = (value: unknown) => typeof value === 'string' && passesLuhn(value);
  defaultMessage = () => 'number must be a card number that passes the Luhn check';
}

/** `createExternalBankAccount(bankData)`: a SEPA-style bank account for payouts. */
export class BankAccountDto {
  @IsString() @Length(2, 100) accountHolderName!: string;
  @Transform(compact) @Validate(IbanConstraint) iban!: string;
  @IsOptional()
  @Transform(compact)
  @Matches(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, { message: 'bic must be 8 or 11 characters' })
  bic?: string;
  @Transform(compact) @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code' }) currency = 'EUR';
}

/** `createExternalCardAccount(cardData)`: a debit card for payouts. */
export class CardAccountDto {
  @IsString() @Length(2, 100) holderName!: string;
  @Transform(compact) @Validate(LuhnConstraint) number!: string;
  @IsInt() @Min(1) @Max(12) expMonth!: number;
  @IsInt() @Min(2000) @Max(2100) expYear!: number;
  @Transform(compact) @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code' }) currency = 'EUR';
}

/** `verifyAccount(..., metaInfo)`: the business profile of the account. */
export class VerificationDto {
  @IsIn(BUSINESS_TYPES) businessType!: string;
  @IsOptional() @IsString() businessStructure?: string;
  @IsIn(Object.keys(MERCHANT_CATEGORY_CODES), { message: 'mcc must be one of getMCCs()' }) mcc!: string;
  @Transform(compact)
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' })
  country!: string;
  @IsOptional() @Matches(/^[^@\s]+@[^@\s]+$/, { message: 'email must be an e-mail address' }) email?: string;
  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'website must be an http(s) URL' }) website?: string;
}
