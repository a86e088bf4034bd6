import readXlsxFile from 'read-excel-file/browser';
import { PageSkeleton } from '../../PageSkeleton';
import { DOCUMENT_MAX_BYTES, EncryptedOfficeError, fetchBytes, isOleFile, SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from './fetch-bytes';
import { odsSheets, readOdfContent, type SheetTable } from './odf';
import { SheetTabs } from './SheetTabs';
import type { ViewerProps } from './types';
import { useLoaded } from './use-loaded';
import { ViewerFailure } from './ViewerFailure';

type Cell = string | number | boolean | Date | null | undefined;

const cellText = (cell: Cell) => (cell === null || cell === undefined ? '' : cell instanceof Date ? cell.toISOString().replace(/T00:00:00\.000Z$/, '') : String(cell));

/** An Excel workbook's sheets, cut to what the page shows. */
async function xlsxSheets(bytes: Uint8Array<ArrayBuffer>): Promise<SheetTable[]> {
  const sheets = await readXlsxFile(bytes.buffer);
  return sheets.map(({ sheet, data }) => ({
    name: sheet,
    rows: data.slice(0, SHEET_MAX_ROWS).map((row) => (row as Cell[]).slice(0, SHEET_MAX_COLUMNS).map(cellText)),
    truncated: data.length > SHEET_MAX_ROWS || data.some((row) => row.length > SHEET_MAX_COLUMNS),
  }));
}

/** xlsx (read-excel-file) and ods (odf.ts) workbooks: sheets as tabs. */
export default function SheetViewer({ src, downloadUrl, format }: ViewerProps & { format: 'xlsx' | 'ods' }) {
  const loaded = useLoaded(src, async (signal) => {
    const bytes = await fetchBytes(src, DOCUMENT_MAX_BYTES, signal);
    if (isOleFile(bytes)) throw new EncryptedOfficeError();
    return format === 'xlsx' ? xlsxSheets(bytes) : odsSheets(await readOdfContent(new Blob([bytes])));
  });
  if (loaded.status === 'error') return <ViewerFailure error={loaded.error} downloadUrl={downloadUrl} />;
  if (loaded.status === 'loading') return <PageSkeleton lines={8} />;
  return <SheetTabs sheets={loaded.data} />;
}
