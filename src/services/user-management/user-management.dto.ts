import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../auth/passwords/password-policy';
import { Role } from '../../common/principal';

/** The roles an account may hold (GUEST is the absence of one). */
export const ACCOUNT_ROLES = [Role.USER, Role.ADMIN] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** `listUsers(query)`: accounts whose username or e-mail contains `search` (literal text, case ignored). */
export class UserSearchDto {
  @IsOptional() @IsString() @MaxLength(100) search?: string;
  @IsOptional() @IsIn(ACCOUNT_ROLES) role?: AccountRole;
  @IsOptional() @IsBoolean() disabled?: boolean;
  @IsInt() @Min(0) @Max(10_000) page = 0;
  @IsInt() @Min(1) @Max(200) size = 20;
}

/** `createUser(user)`: a verified account; the operator hands the password over. */
export class NewUserDto {
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{3,64}$/, { message: 'username must be 3-64 letters, digits, dots, dashes or underscores' })
  username!: string;

  @IsString() @IsEmail() @MaxLength(254) email!: string;

  @IsString() @MinLength(MIN_PASSWORD_LENGTH) @MaxLength(MAX_PASSWORD_LENGTH) password!: string;

  @IsIn(ACCOUNT_ROLES) role: AccountRole = Role.USER;
}
