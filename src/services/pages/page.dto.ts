import { Transform, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDateString,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** A page's slug: one URL segment. */
export const PAGE_URL = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;
const PAGE_URL_MESSAGE = 'pageUrl must be one URL segment of letters, digits, ".", "_", "~" or "-"';
const MAX_CONTENT = 2 * 1024 * 1024;
const toList = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? [value] : value);

/**
 * Input of `createPage` / `updatePage`. An update replaces the fields it carries; `published` and `imageUrlRemove`
 * default to false as in the spec, so an update that omits `published` unpublishes the page.
 */
export class PageRequestDto {
  @IsOptional()
  @IsString()
  id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  imageUrl?: string;

  @IsOptional()
  @Matches(PAGE_URL, { message: PAGE_URL_MESSAGE })
  pageUrl?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  containerType?: string;

  @IsOptional()
  @Transform(toList)
  @IsArray()
  @IsString({ each: true })
  categoriesId?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(MAX_CONTENT)
  content?: string;

  @IsOptional()
  @IsDateString()
  releaseDate?: string;

  @IsOptional()
  @IsObject()
  metaInfo?: Record<string, unknown>;

  @IsBoolean()
  published = false;

  @IsBoolean()
  imageUrlRemove = false;
}

/** Options of a copy: `lang` is the target language of a translation. */
export class CopyTargetDto {
  @IsOptional()
  @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'request.lang must be a language code such as en or de-AT' })
  lang?: string;
}

/**
 * Input of `duplicatePage` (a new page from `fromId`, at `pageUrl`) and `copyPage` (the content of `fromId` into the
 * existing page `toId`). With `translate` the target is in `request.lang` and is marked as awaiting translation;
 * with `emailTemplate` the copy becomes an e-mail template.
 */
export class PageCopyRequestDto {
  @IsString()
  @IsNotEmpty()
  fromId!: string;

  @IsOptional()
  @IsString()
  toId?: string;

  @IsOptional()
  @Matches(PAGE_URL, { message: PAGE_URL_MESSAGE })
  pageUrl?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CopyTargetDto)
  request?: CopyTargetDto;

  @IsBoolean()
  translate = false;

  @IsBoolean()
  emailTemplate = false;
}

/**
 * Input of `publishToUrl`: the page `pageName` (its pageUrl) is published at `/<pageRoot>/<pageName>`, optionally
 * showing the container `containerId`; `copyTo` lists further URIs where the same page answers.
 */
export class RouteRequestDto {
  @Matches(PAGE_URL, { message: 'pageName must be the pageUrl of a page' })
  pageName!: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  pageRoot?: string;

  @IsOptional()
  @IsString()
  containerId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  containerType?: string;

  @IsOptional()
  @Transform(toList)
  @IsArray()
  @IsString({ each: true })
  copyTo?: string[];
}
