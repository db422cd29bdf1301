import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { conflictOnDuplicate } from '../../common/mongo/duplicate-key';
import { toObjectId } from '../../common/mongo/object-id';
import { PageRepository, StoredPage } from '../content/page.repository';
import { Page } from '../content/page.schema';
import { contentScope } from '../content/scope';
import { PageCopyRequestDto } from './page.dto';

/** Duplicates pages and copies content between them, across languages for translations. */
@Injectable()
export class PageCopier {
  constructor(private readonly pages: PageRepository) {}

  async duplicate(request: PageCopyRequestDto): Promise<void> {
    const source = await this.source(request);
    const lang = targetLang(request);
    const pageUrl = request.pageUrl ?? (request.translate ? source.pageUrl : `${source.pageUrl}-copy`);
    await this.pages
      .insert({
        site: source.site,
        lang,
        pageUrl,
        ...copiedFields(source, request),
        published: false,
        releaseDate: source.releaseDate,
      })
      .catch(conflictOnDuplicate(`Page "${pageUrl}" exists in language ${lang}`));
  }

  async copyInto(request: PageCopyRequestDto): Promise<void> {
    if (!request.toId) throw new BadRequestException('toId is required');
    const source = await this.source(request);
    const target = { _id: toObjectId(request.toId, 'toId'), site: source.site, lang: targetLang(request) };
    const found = await this.pages.overwrite(target, copiedFields(source, request));
    if (!found) throw new NotFoundException(`Page ${request.toId} not found in language ${target.lang}`);
  }

  private async source(request: PageCopyRequestDto): Promise<StoredPage> {
    const source = await this.pages.findHere(toObjectId(request.fromId, 'fromId'));
    if (!source) throw new NotFoundException(`Page ${request.fromId} not found`);
    return source;
  }
}

function targetLang(request: PageCopyRequestDto): string {
  if (!request.translate) return contentScope().lang;
  if (!request.request?.lang)
    throw new BadRequestException('request.lang (the target language) is required to translate');
  return request.request.lang;
}

function copiedFields(source: StoredPage, request: PageCopyRequestDto): Partial<Page> {
  return {
    content: source.content,
    metaInfo: source.metaInfo,
    imageUrl: source.imageUrl,
    containerType: source.containerType,
    categoriesId: source.categoriesId,
    awaitingTranslation: request.translate,
    emailTemplate: request.emailTemplate || source.emailTemplate,
    copiedFrom: source._id.toHexString(),
  };
}
