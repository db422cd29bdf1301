import { Transform } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import countries from 'i18n-iso-countries';
import { ApplicationStatus } from './seller-application.schema';
import { checkVatId, MAX_VAT_ID_INPUT, VatIdCheck } from './vat-id';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const capitals = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);

@ValidatorConstraint({ name: 'country' })
class CountryConstraint implements ValidatorConstraintInterface {
  validate = (value: unknown) => typeof value === 'string' && /^[A-Z]{2}$/.test(value) && countries.isValid(value);
  defaultMessage = () => 'country must be an ISO 3166-1 alpha-2 code such as DE';
}

/** The VAT id in the format of the object's `country` (see `vat-id.ts`). */
@ValidatorConstraint({ name: 'vatId' })
class VatIdConstraint implements ValidatorConstraintInterface {
  validate = (value: unknown, args: ValidationArguments) => vatIdCheck(value, args).valid;
  defaultMessage = (args: ValidationArguments) => {
    const check = vatIdCheck(args.value, args);
    return check.valid ? '' : check.problem;
  };
}

function vatIdCheck(value: unknown, { object }: ValidationArguments): VatIdCheck {
  const { country } = object as { country?: unknown };
  if (typeof value !== 'string') return { valid: false, problem: 'vatId must be a string' };
  if (typeof country !== 'string') return { valid: false, problem: 'vatId needs a valid country' };
  return checkVatId(value, country);
}

/** The company fields of an application and of a company profile. */
class CompanyFields {
  @Transform(trimmed) @IsString() @Length(2, 200) companyName!: string;
  @Transform(trimmed) @IsString() @Length(2, 200) street!: string;
  @Transform(capitals)
  @IsString()
  @Matches(/^[A-Z0-9][A-Z0-9 -]{1,10}$/, { message: 'postalCode must be 2-11 letters, digits, spaces or dashes' })
  postalCode!: string;
  @Transform(trimmed) @IsString() @Length(1, 100) city!: string;
  @Transform(capitals) @Validate(CountryConstraint) country!: string;
  @IsString() @MaxLength(MAX_VAT_ID_INPUT) @Validate(VatIdConstraint) vatId!: string;
  @IsOptional() @IsString() @IsEmail() @MaxLength(254) email?: string;
}

/** `applyAsSeller(application)`: who the seller will be. The VAT id must match the country's format. */
export class SellerApplicationDto extends CompanyFields {}

/** `updateMyCompanyProfile(profile)`: the whole company profile, as in the application. */
export class CompanyProfileDto extends CompanyFields {}

/** `listApplications(query)`: the operators' queue, oldest first. */
export class ApplicationSearchDto {
  @IsOptional() @IsIn(Object.values(ApplicationStatus)) status?: ApplicationStatus;
  @IsInt() @Min(0) @Max(10_000) page = 0;
  @IsInt() @Min(1) @Max(200) size = 20;
}
