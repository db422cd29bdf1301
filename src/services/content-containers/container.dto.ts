import { Transform, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDateString,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { OBJECT_ID_HEX } from '../../common/mongo/object-id';

const MAX_TEXT = 1024 * 1024;
const toList = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? [value] : value);

export class ArticleDto {
  /** Present: keeps that article's id on save; absent: a new article. */
  @IsOptional()
  @Matches(OBJECT_ID_HEX, { message: 'article id must be a 24-character hexadecimal id' })
  id?: string;

  @IsString()
  @MaxLength(500)
  title!: string;

  @IsOptional()
  @IsString()
  @MaxLength(5000)
  summary?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEXT)
  content?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  imageUrl?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  author?: string;

  @IsOptional()
  @Transform(toList)
  @IsArray()
  @IsString({ each: true })
  tags?: string[];

  @IsBoolean()
  published = false;

  @IsOptional()
  @IsDateString()
  releaseDate?: string;
}

/**
 * The container (blog) map of `createContainer` / `saveContainer`. `name` and `type` are required to create;
 * `articles`, when given, is the complete new list. `published` defaults to false, as for pages.
 */
export class ContainerDto {
  @IsOptional()
  @Matches(/^[a-z][a-z0-9_-]{0,49}$/, { message: 'type must be a lower-case word such as blog or news' })
  type?: string;

  @IsOptional()
  @IsString()
  @MaxLength(300)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  imageUrl?: string;

  @IsOptional()
  @Transform(toList)
  @IsArray()
  @IsString({ each: true })
  tags?: string[];

  @IsBoolean()
  published = false;

  @IsOptional()
  @IsObject()
  metaInfo?: Record<string, unknown>;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ArticleDto)
  articles?: ArticleDto[];
}
