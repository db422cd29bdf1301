import type * as ExcelJS from 'exceljs';
import { Writable } from 'node:stream';
import { cellValue, ReportColumn } from './report-definitions';

type Rows = AsyncIterable<Record<string, unknown>>;

/** Cells a spreadsheet would run as formulas get a leading quote (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: ReturnType<typeof cellValue>): string {
  if (value === null) return '';
  const text = value instanceof Date ? value.toISOString() : String(value);
  const safe = typeof value === 'string' && FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180 CSV with a header line and CRLF line ends, written row by row. */
export async function writeCsv(rows: Rows, columns: ReportColumn[], out: Writable): Promise<void> {
  await write(out, `${columns.map((c) => csvCell(c.header)).join(',')}\r\n`);
  for await (const row of rows) await write(out, `${columns.map((c) => csvCell(cellValue(row, c.path))).join(',')}\r\n`);
  out.end();
}

/** An XLSX workbook with one sheet, streamed as rows arrive. */
export async function writeXlsx(rows: Rows, columns: ReportColumn[], sheetName: string, out: Writable): Promise<void> {
  // exceljs is loaded by the first spreadsheet: most processes never write one.
  const { stream } = require('exceljs') as typeof ExcelJS;
  const workbook = new stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.header, width: 20 }));
  sheet.getRow(1).font = { bold: true };
  for await (const row of rows) sheet.addRow(columns.map((c) => cellValue(row, c.path))).commit();
  sheet.commit();
  await workbook.commit();
}

function write(out: Writable, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.write(chunk)) resolve();
    else {
      out.once('drain', resolve);
      out.once('error', reject);
    }
  });
}
