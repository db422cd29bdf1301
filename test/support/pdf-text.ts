// pdf-parse's index runs a self-test when loaded without a parent module (as under jest): load its library file.
import pdfParse from 'pdf-parse/lib/pdf-parse.js';

interface TextItem {
  str: string;
  transform: number[];
}

/** Text of each page, a line break wherever the baseline moves (as pdf-parse's own renderer does). */
export async function pdfPages(pdf: Buffer): Promise<string[]> {
  const pages: string[] = [];
  await pdfParse(pdf, {
    pagerender: async (page: { getTextContent(): Promise<{ items: TextItem[] }> }) => {
      let text = '';
      let lastY: number | undefined;
      for (const item of (await page.getTextContent()).items) {
        text += lastY === undefined || lastY === item.transform[5] ? item.str : `\n${item.str}`;
        lastY = item.transform[5];
      }
      pages.push(text);
      return text;
    },
  });
  return pages;
}
