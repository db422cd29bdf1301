import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../passwords/password-policy';

const NEW_PASSWORD = { minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH };

export class RegisterDto {
  @ApiProperty({ pattern: '^[A-Za-z0-9._-]{3,64}$' })
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{3,64}$/, { message: 'username must be 3-64 letters, digits, dots, dashes or underscores' })
  username!: string;

  @ApiProperty({ format: 'email' })
  @IsString()
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiProperty(NEW_PASSWORD)
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH)
  @MaxLength(MAX_PASSWORD_LENGTH)
  password!: string;
}

export class OneTimeTokenDto {
  @ApiProperty({ description: 'The token from the mail' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  token!: string;
}

export class ResetPasswordDto {
  @ApiProperty({ format: 'email' })
  @IsString()
  @IsEmail()
  @MaxLength(254)
  email!: string;
}

export class SavePasswordDto extends OneTimeTokenDto {
  @ApiProperty(NEW_PASSWORD)
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH)
  @MaxLength(MAX_PASSWORD_LENGTH)
  password!: string;
}

export class ChangePasswordDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  oldPassword!: string;

  @ApiProperty(NEW_PASSWORD)
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH)
  @MaxLength(MAX_PASSWORD_LENGTH)
  newPassword!: string;
}
