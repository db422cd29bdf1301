import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppConfig } from '../../config/app-config';
import { OrderMailData } from './order-mail-data';
import { OrderMailKind } from './order-mail.schema';
import { DE } from './templates/de';
import { EN } from './templates/en';

const BUILT_IN: Record<string, Record<OrderMailKind, string>> = { en: EN, de: DE };
export const DEFAULT_MAIL_LANG = 'en';

export interface RenderedMail {
  subject: string;
  text: string;
}

/** The language of a mail: the primary subtag of a language code (`de-CH` → `de`); anything else is English. */
export function mailLanguage(code: string | undefined): string {
  const primary = code?.split(/[-_]/)[0]?.toLowerCase() ?? '';
  return /^[a-z]{2,3}$/.test(primary) ? primary : DEFAULT_MAIL_LANG;
}

/**
 * The order mails' templates: an operator's file `DATA_DIR/mail-templates/<lang>/<kind>.hbs` when there is one
 * (read at every mail, so a change needs no restart), else the built-in one of that language, else the operator's
 * or built-in English one. A template is plain text: its first line is the subject, the body follows a blank line.
 * Values are inserted as they are (no HTML escaping: the mail is plain text).
 */
@Injectable()
export class OrderMailTemplates {
  private readonly dir: string;

  constructor(config: AppConfig) {
    this.dir = join(config.dataDir, 'mail-templates');
  }

  async render(kind: OrderMailKind, lang: string, data: OrderMailData): Promise<RenderedMail> {
    const source = (await this.source(kind, lang)) ?? (await this.source(kind, DEFAULT_MAIL_LANG)) ?? EN[kind];
    const rendered = Handlebars.compile(source, { noEscape: true, strict: false })(data);
    const [subject, ...body] = rendered.split('\n');
    // One line: a value with a line break must not end the subject header early.
    return { subject: subject.replace(/\s+/g, ' ').trim(), text: body.join('\n').replace(/^\n+/, '') };
  }

  private async source(kind: OrderMailKind, lang: string): Promise<string | undefined> {
    return (await this.operatorTemplate(kind, lang)) ?? BUILT_IN[lang]?.[kind];
  }

  /** `lang` is a checked language subtag and `kind` an enum value, so the path stays inside the folder. */
  private async operatorTemplate(kind: OrderMailKind, lang: string): Promise<string | undefined> {
    try {
      return await readFile(join(this.dir, lang, `${kind}.hbs`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
