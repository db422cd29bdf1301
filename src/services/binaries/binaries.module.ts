import { Module } from '@nestjs/common';
import { BinaryStore } from './binary-store';

@Module({ providers: [BinaryStore], exports: [BinaryStore] })
export class BinariesModule {}
