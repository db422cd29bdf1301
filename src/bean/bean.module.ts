import { Module } from '@nestjs/common';
import { BeanController } from './bean.controller';

/** The HTTP face of the bean gateway; admission (context headers, rate limit) is in `BeanAdmissionModule`. */
@Module({
  controllers: [BeanController],
})
export class BeanModule {}
