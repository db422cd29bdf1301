import { Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { validationFailed } from './errors/validation-errors';

/** App-wide HTTP plumbing: the error filter and DTO validation of REST bodies (the request context: `createApp`). */
@Module({
  providers: [
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    {
      provide: APP_PIPE,
      useValue: new ValidationPipe({
        whitelist: true,
        transform: true,
        exceptionFactory: (errors) => validationFailed(errors),
      }),
    },
  ],
})
export class CommonModule {}
