// Reading a written report back with exceljs, the way a user's Excel would see it.
import ExcelJS from 'exceljs';

export type ReadValue = string | number | Date | null;

export interface ReadSheet {
  sheet: ExcelJS.Worksheet;
  title: string;
  note: string;
  header: string[];
  rows: ReadValue[][];
}

export async function readWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  return workbook;
}

export function readSheet(workbook: ExcelJS.Workbook, name: string): ReadSheet {
  const sheet = workbook.getWorksheet(name);
  if (!sheet)
    throw new Error(`no sheet ${name}; sheets: ${workbook.worksheets.map((s) => s.name).join(', ')}`);
  const header = rowValues(sheet, 3).map(String);
  const rows: ReadValue[][] = [];
  for (let r = 4; r <= sheet.rowCount; r += 1) {
    const values = rowValues(sheet, r, header.length);
    if (values.some((v) => v !== null)) rows.push(values);
  }
  return {
    sheet,
    title: String(sheet.getCell(1, 1).value),
    note: String(sheet.getCell(2, 1).value),
    header,
    rows,
  };
}

function rowValues(sheet: ExcelJS.Worksheet, r: number, width = sheet.getRow(r).cellCount): ReadValue[] {
  const values: ReadValue[] = [];
  for (let c = 1; c <= width; c += 1) {
    const cell = sheet.getCell(r, c);
    if (cell.type === ExcelJS.ValueType.Formula) throw new Error(`formula in ${sheet.name}!${cell.address}`);
    const v = cell.value;
    values.push(v === undefined || v === null ? null : (v as ReadValue));
  }
  return values;
}

/** The rows as objects keyed by header, for readable assertions. */
export function records(read: ReadSheet): Record<string, ReadValue>[] {
  return read.rows.map((row) => Object.fromEntries(read.header.map((h, i) => [h, row[i] ?? null])));
}
