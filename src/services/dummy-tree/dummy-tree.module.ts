import { Module } from '@nestjs/common';
import { DummyTreeService } from './dummy-tree.service';

@Module({ providers: [DummyTreeService], exports: [DummyTreeService] })
export class DummyTreeModule {}
