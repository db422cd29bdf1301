import { IsEmail, IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../passwords/password-policy';

export class RegisterDto {
  @IsString() @Matches(/^[A-Za-z0-9._-]{3,64}$/, { message: 'username must be 3-64 letters, digits, dots, dashes or underscores' })
  username!: string;

  @IsString() @IsEmail() @MaxLength(254)
  email!: string;

  @IsString() @MinLength(MIN_PASSWORD_LENGTH) @MaxLength(MAX_PASSWORD_LENGTH)
  password!: string;
}

export class OneTimeTokenDto {
  @IsString() @IsNotEmpty() @MaxLength(256)
  token!: string;
}

export class ResetPasswordDto {
  @IsString() @IsEmail() @MaxLength(254)
  email!: string;
}

export class SavePasswordDto extends OneTimeTokenDto {
  @IsString() @MinLength(MIN_PASSWORD_LENGTH) @MaxLength(MAX_PASSWORD_LENGTH)
  password!: string;
}

export class ChangePasswordDto {
  @IsString() @IsNotEmpty() @MaxLength(1024)
  oldPassword!: string;

  @IsString() @MinLength(MIN_PASSWORD_LENGTH) @MaxLength(MAX_PASSWORD_LENGTH)
  newPassword!: string;
}
