import { BadRequestException } from '@nestjs/common';
import { ValidationError } from 'class-validator';
import { FieldProblem } from './error-body';

/** Flattens class-validator errors (nested ones included) into field problems under `prefix`. */
export function toFieldProblems(errors: ValidationError[], prefix = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...toFieldProblems(error.children ?? [], field)];
  });
}

/** A 400 whose body lists every field problem; also the `exceptionFactory` of the global ValidationPipe. */
export function validationFailed(errors: ValidationError[], prefix = ''): BadRequestException {
  return new BadRequestException({ message: 'Validation failed', details: toFieldProblems(errors, prefix) });
}
