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

/** A job as the API returns it. */
export interface JobView {
  id: string;
  type: string;
  description: string;
  status: JobStatus;
  current: number;
  total: number;
  progress: number;
  reason: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** `searchJobs` answer: one page of jobs and the number of all matches. */
export interface JobSearchResponse {
  items: JobView[];
  total: number;
}
