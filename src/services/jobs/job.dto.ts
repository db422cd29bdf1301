import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { JobStatus } from './job-lifecycle';

/** Input of `createJob` / `saveJob`: the spec's Job map, with `current`, `total` and `progress` defaulting to 0. */
export class JobDto {
  @IsOptional()
  @IsString()
  id?: string;

  @IsOptional()
  @IsIn(Object.values(JobStatus))
  status?: JobStatus;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  type!: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @IsInt()
  @Min(0)
  current = 0;

  @IsInt()
  @Min(0)
  total = 0;

  @IsInt()
  @Min(0)
  @Max(100)
  progress = 0;
}
