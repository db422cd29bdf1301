import { IsInt, Matches, Max, Min } from 'class-validator';

/** A card to tokenize (the provider's client-side step, served by the sandbox). */
export class CreatePaymentMethodDto {
  @Matches(/^\d{12,19}$/, { message: 'number must be 12 to 19 digits' }) number!: string;
  @IsInt() @Min(1) @Max(12) expMonth!: number;
  @IsInt() @Min(2000) @Max(2100) expYear!: number;
  @Matches(/^\d{3,4}$/, { message: 'cvc must be 3 or 4 digits' }) cvc!: string;
}
