import { IsMongoId, IsOptional, IsString, ValidateBy } from 'class-validator';
import { numberPatternProblem } from './invoices';

/** A number pattern that `numberPatternProblem` accepts; its problem is the validation message. */
function IsNumberPattern(): PropertyDecorator {
  return ValidateBy({
    name: 'isNumberPattern',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && numberPatternProblem(value) === null,
      defaultMessage: (args) =>
        `${args?.property}: ${typeof args?.value === 'string' ? numberPatternProblem(args.value) : 'must be a string'}`,
    },
  });
}

/**
 * The map of `setDocumentNumbering`: the number patterns of the seller's invoices and credit notes to buyers, e.g.
 * `INV-{YYYY}-{SEQ:6}` (at least one of them). `sellerId` names the seller for an ADMIN.
 */
export class DocumentNumberingDto {
  @IsOptional() @IsMongoId() sellerId?: string;
  @IsOptional() @IsString() @IsNumberPattern() invoicePattern?: string;
  @IsOptional() @IsString() @IsNumberPattern() creditNotePattern?: string;
}
