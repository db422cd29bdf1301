import type * as ExcelJS from 'exceljs';
import { Writable } from 'node:stream';
import { cellValue, ReportCell } from './report-cell';
import { ReportColumn } from '../../common/reports/report-source';

type Rows<T> = AsyncIterable<T>;
type Columns<T> = readonly ReportColumn<T>[];

/** Cells a spreadsheet would run as formulas get a leading quote (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: ReportCell): string {
  if (value === null) return '';
  const text = value instanceof Date ? value.toISOString() : String(value);
  const safe = typeof value === 'string' && FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180 CSV with a header line and CRLF line ends, written row by row. */
export async function writeCsv<T>(rows: Rows<T>, columns: Columns<T>, out: Writable): Promise<void> {
  await write(out, `${columns.map((c) => csvCell(c.header)).join(',')}\r\n`);
  for await (const row of rows) await write(out, `${cellsOf(row, columns).map(csvCell).join(',')}\r\n`);
  out.end();
}

/** An XLSX workbook with one sheet, streamed as rows arrive. */
export async function writeXlsx<T>(
  rows: Rows<T>,
  columns: Columns<T>,
  sheetName: string,
  out: Writable,
): Promise<void> {
  // exceljs is loaded by the first spreadsheet: most processes never write one.
  const { stream } = require('exceljs') as typeof ExcelJS;
  const workbook = new stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.header, width: 20 }));
  sheet.getRow(1).font = { bold: true };
  for await (const row of rows) sheet.addRow(cellsOf(row, columns)).commit();
  sheet.commit();
  await workbook.commit();
}

function cellsOf<T>(row: T, columns: Columns<T>): ReportCell[] {
  return columns.map((c) => cellValue(c.value(row)));
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
