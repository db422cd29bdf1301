import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** `IsString` also refuses objects such as `{"$ne": null}`, so no query operator reaches the database. */
export class CredentialsDto {
  @ApiProperty({ example: 'admin', maxLength: 256 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  username!: string;

  @ApiProperty({ maxLength: 1024 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password!: string;
}

export class AuthenticateDto extends CredentialsDto {
  @ApiPropertyOptional({ default: false, description: 'A persistent cookie for REMEMBER_ME_TTL' })
  @IsOptional()
  @IsBoolean()
  rememberMe?: boolean;
}

export class ValidateTokenDto {
  @ApiProperty({ description: 'A JWT from auth/token' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(8192)
  token!: string;
}

/** The spec's logout body: validated, but the answer names the role the server verified, not this one. */
export class LogoutDto {
  @ApiProperty({ enum: ['user', 'admin'] })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsIn(['user', 'admin'])
  role!: string;
}

export interface TokenResponse {
  token: string;
  /** Expiry instant in epoch milliseconds. */
  expires: number;
}

export type TokenValidity =
  { valid: true; username: string; role: string; expires: number } | { valid: false; reason: string };
