import { Module } from '@nestjs/common';
import { AuthModule } from '../../auth/auth.module';
import { TokenService } from './token.service';

@Module({ imports: [AuthModule], providers: [TokenService] })
export class TokenModule {}
