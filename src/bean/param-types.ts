import { Type } from '@nestjs/common';

/** Parameter types with a fixed conversion rule (see README, "The bean framework"). */
export type ScalarParamType = 'String' | 'int' | 'boolean' | 'Map' | 'IdList';

/** A `Map` argument with a known shape, validated by a class-validator DTO. */
export interface MapOfParamType<T extends object = object> {
  readonly kind: 'MapOf';
  readonly dto: Type<T>;
}

export type ParamType = ScalarParamType | MapOfParamType;

/**
 * Declares a `Map` parameter validated by `dto` (class-validator); property initialisers of the DTO are its defaults.
 * @example
 * class JobDto { @IsOptional() @IsString() type?: string; @IsInt() total = 0; }
 * @Exposed([MapOf(JobDto)]) createJob(job: JobDto) { ... }
 */
export function MapOf<T extends object>(dto: Type<T>): MapOfParamType<T> {
  return { kind: 'MapOf', dto };
}

/** The name of a parameter type as signatures show it: `String`, `int`, `Map<JobDto>`, ... */
export function paramTypeName(type: ParamType): string {
  return typeof type === 'string' ? type : `Map<${type.dto.name}>`;
}
