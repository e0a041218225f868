import writeExcelFile from 'write-excel-file/node';
import type { SheetCell } from './export-rows';

/**
 * Excel's Text format on text cells: what the staff type into them later stays as typed too (a
 * phone number keeps its zero when edited), as the cell itself already is.
 */
const TEXT = '@';

/**
 * The export as a workbook (.xlsx): one sheet, the header row bold and kept in view, every text a
 * text cell (a string, never a formula: nothing to defuse, no apostrophe to show) and numbers as
 * numbers. A CSV cannot say which cells are text, so Excel and LibreOffice guess, and a guess drops
 * a phone number's leading zero (README: Exporting requests for the desk).
 */
export function xlsxWorkbook(sheet: string, header: readonly string[], rows: readonly SheetCell[][]): Promise<Buffer> {
  const data = [
    header.map((value) => ({ value, type: String, format: TEXT, fontWeight: 'bold' as const })),
    ...rows.map((cells) =>
      cells.map((value) => {
        if (value === undefined) return null;
        return typeof value === 'number' ? { value, type: Number } : { value, type: String, format: TEXT };
      }),
    ),
  ];
  const columns = header.map((title) => ({ width: Math.max(12, title.length + 2) }));
  return writeExcelFile(data, { sheet, columns, stickyRowsCount: 1 }).toBuffer();
}
