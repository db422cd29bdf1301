import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** `IsString` also refuses objects such as `{"$ne": null}`, so no query operator reaches the database. */
export class CredentialsDto {
  @IsString() @IsNotEmpty() @MaxLength(256)
  username!: string;

  @IsString() @IsNotEmpty() @MaxLength(1024)
  password!: string;
}

export class AuthenticateDto extends CredentialsDto {
  @IsOptional() @IsBoolean()
  rememberMe?: boolean;
}

export class ValidateTokenDto {
  @IsString() @IsNotEmpty() @MaxLength(8192)
  token!: string;
}

export class LogoutDto {
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsIn(['user', 'admin'])
  role!: string;
}

export interface TokenResponse {
  token: string;
  /** Expiry instant in epoch milliseconds. */
  expires: number;
}

export type TokenValidity =
  | { valid: true; username: string; role: string; expires: number }
  | { valid: false; reason: string };
