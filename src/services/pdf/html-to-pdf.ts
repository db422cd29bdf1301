import { BadRequestException } from '@nestjs/common';
import type HtmlToPdfmake from 'html-to-pdfmake';
import type * as Linkedom from 'linkedom';
import type * as Parse5 from 'parse5';
import type * as Pdfmake from 'pdfmake';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';

export interface PdfParts {
  header?: string;
  body: string;
  footer?: string;
}

/** Inline images are the only pictures allowed: a URL or path in user HTML would read files or the network. */
const INLINE_IMAGE = /^data:image\/(png|jpe?g);base64,/i;
/** How pdfmake reports an image it cannot decode (bad base64, not a PNG/JPEG, a truncated file). */
const PDFMAKE_INVALID_IMAGE = /^Invalid image:/;

/** The `window` html-to-pdfmake reads; its types name jsdom's, but it uses nothing of it but `DOMParser`. */
type PdfmakeWindow = NonNullable<Parameters<typeof HtmlToPdfmake>[1]>['window'];

interface PdfToolkit {
  pdfmake: typeof Pdfmake;
  htmlToPdfmake: typeof HtmlToPdfmake;
  window: PdfmakeWindow;
}
let toolkit: PdfToolkit | undefined;

/** pdfmake, html-to-pdfmake and the HTML parsers, loaded and set up by the first PDF (pdfmake costs tens of MB). */
function pdfToolkit(): PdfToolkit {
  if (toolkit) return toolkit;
  const pdfmake = require('pdfmake') as typeof Pdfmake;
  const robotoFonts = require('pdfmake/fonts/Roboto') as { Roboto: Record<string, string> };
  const fontFiles = new Set(Object.values(robotoFonts.Roboto));
  pdfmake.setFonts(robotoFonts);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((path) => fontFiles.has(path));
  const window = { DOMParser: html5DomParser() } as unknown as PdfmakeWindow;
  toolkit = { pdfmake, htmlToPdfmake: require('html-to-pdfmake') as typeof HtmlToPdfmake, window };
  return toolkit;
}

/**
 * A `DOMParser` that builds the tree a browser would: parse5 (the HTML standard's parsing algorithm) places what
 * the markup leaves implicit (`<tbody>` in a table, `<script>` before the body in the head), and linkedom, a light
 * DOM that would keep `<tr>` straight under `<table>` (html-to-pdfmake then renders an empty table), reads the
 * explicit result. Neither runs scripts nor loads resources, so parsing untrusted HTML here is inert.
 */
function html5DomParser(): new () => { parseFromString(html: string): unknown } {
  const { parse, serialize } = require('parse5') as typeof Parse5;
  const { DOMParser: LightDomParser } = require('linkedom') as typeof Linkedom;
  return class {
    parseFromString(html: string): unknown {
      const document = new LightDomParser().parseFromString(serialize(parse(html)), 'text/html');
      document.normalize(); // one text node where linkedom splits at each character reference (`&amp;`)
      return document;
    }
  };
}

/**
 * Renders HTML to PDF bytes; the header and footer, when given, repeat on every page.
 * @throws BadRequestException when an inline image cannot be decoded: the caller's input, not a server fault
 */
export async function renderPdf(parts: PdfParts): Promise<Buffer> {
  const definition: TDocumentDefinitions = {
    content: toContent(parts.body),
    defaultStyle: { font: 'Roboto', fontSize: 11 },
    pageMargins: [40, parts.header ? 80 : 40, 40, parts.footer ? 80 : 40],
  };
  if (parts.header) {
    const header = toContent(parts.header);
    definition.header = () => ({ stack: [header], margin: [40, 20, 40, 0] });
  }
  if (parts.footer) {
    const footer = toContent(parts.footer);
    definition.footer = () => ({ stack: [footer], margin: [40, 10, 40, 0] });
  }
  try {
    return await pdfToolkit().pdfmake.createPdf(definition).getBuffer();
  } catch (error) {
    if (error instanceof Error && PDFMAKE_INVALID_IMAGE.test(error.message)) {
      throw new BadRequestException('An inline image is not a valid PNG or JPEG data URI');
    }
    throw error;
  }
}

function toContent(html: string): Content {
  const { htmlToPdfmake, window } = pdfToolkit();
  return withoutExternalResources(htmlToPdfmake(html, { window, removeExtraBlanks: true })) as Content;
}

function withoutExternalResources(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutExternalResources);
  if (node === null || typeof node !== 'object') return node;
  const record = node as Record<string, unknown>;
  if ('svg' in record) return { text: '' };
  if ('image' in record && !INLINE_IMAGE.test(String(record.image)))
    return { text: typeof record.alt === 'string' ? record.alt : '' };
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, withoutExternalResources(value)]));
}
