import { Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { validationFailed } from './errors/validation-errors';
import { RequestContextInterceptor } from './request-context.interceptor';

/** App-wide HTTP plumbing: the error filter, the request context and DTO validation of REST bodies. */
@Module({
  providers: [
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor },
    {
      provide: APP_PIPE,
      useValue: new ValidationPipe({ whitelist: true, transform: true, exceptionFactory: (errors) => validationFailed(errors) }),
    },
  ],
})
export class CommonModule {}
