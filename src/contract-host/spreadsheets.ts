// SheetJS (published on npm as @e965/xlsx, an unaltered copy of each official release, which SheetJS
// itself no longer puts on npm): the most used XLSX reader, with no dependencies, synchronous, and able to
// write the files tests make. Its current release carries the fixes the stale npm `xlsx` 0.18.5 lacks;
// exceljs (last release 2023) pulls in a deep dependency tree, and read-excel-file cannot write.
import type * as SheetJs from '@e965/xlsx';
import { panic, type BuiltinContext, type BuiltinDef, type Value } from '../vm';
import { intArg } from './args';
import { allowed, columnReadCondition, requireAllowed, tablePermissions } from './permissions';
import { ecosystemOf, hostOf } from './state';
import { ArchiveError, unpackArchive } from './xlsx-archive';
import { resolveTable } from '../table-access/catalog';

/**
 * GetDataFromXLSX and GetRowsCountXLSX: rows of a sheet of an XLSX file stored in the ecosystem's binaries
 * (UploadBinary), as text. The file is unpacked within bounds first (`xlsx-archive.ts`), and the
 * spreadsheet library reads only what was unpacked, from a copy that needs no inflating.
 */

/** Loaded at the first read of a spreadsheet: loading takes a tenth of a second the node's start need not wait. */
let library: Promise<typeof SheetJs> | undefined;
const sheetJs = () => (library ??= import('@e965/xlsx'));

/** The largest file, packed and unpacked: a sheet of some hundred thousand cells. */
const MAX_XLSX_BYTES = 16 * 1024 * 1024;
const MAX_ENTRIES = 1000;

interface Sheet {
  /** Every row from the first (A1) to the last one used, each as wide as the widest, cells as text. */
  rows: string[][];
}

/** The binary's bytes, when the caller may read them; undefined when the ecosystem has no such binary. */
async function binaryData(ctx: BuiltinContext, idArg: Value): Promise<Uint8Array | undefined> {
  const host = hostOf(ctx);
  const ecosystem = ecosystemOf(ctx);
  const table = resolveTable('binaries', ecosystem);
  const permissions = await tablePermissions(host, table);
  if (permissions?.read) await requireAllowed(ctx, permissions.read, 'table');
  const dataCondition = permissions && columnReadCondition(permissions, 'data');
  if (dataCondition && !(await allowed(ctx, dataCondition))) throw panic('Access denied');
  const id = intArg(idArg, 'binary id');
  const size = await host.sql.one<{ size: string }>(
    `SELECT octet_length("data")::text AS "size" FROM "1_binaries" WHERE "id" = $1 AND "ecosystem" = $2`,
    [id.toString(), ecosystem.toString()],
  );
  if (!size) return undefined;
  if (Number(size.size) > MAX_XLSX_BYTES) throw panic(`the file is larger than ${MAX_XLSX_BYTES} bytes`);
  const row = await host.sql.one<{ data: Uint8Array }>(
    `SELECT "data" FROM "1_binaries" WHERE "id" = $1 AND "ecosystem" = $2`,
    [id.toString(), ecosystem.toString()],
  );
  return row?.data;
}

/**
 * Rows of the sheet `sheetNumber` (1 is the first, as in the reference), the first `rowLimit` of them
 * when given; undefined when the workbook has no such sheet.
 */
function readSheet(
  XLSX: typeof SheetJs,
  ctx: BuiltinContext,
  file: Uint8Array,
  sheetNumber: bigint,
  rowLimit?: number,
): Sheet | undefined {
  let entries: Map<string, Buffer>;
  try {
    entries = unpackArchive(file, { entries: MAX_ENTRIES, unpackedBytes: MAX_XLSX_BYTES });
  } catch (error) {
    if (error instanceof ArchiveError) throw panic(error.message);
    throw error;
  }
  let unpacked = 0;
  const container = XLSX.CFB.utils.cfb_new();
  for (const [name, content] of entries) {
    unpacked += content.length;
    // Folders and empty entries hold nothing a workbook reads.
    if (content.length > 0 && !name.endsWith('/')) XLSX.CFB.utils.cfb_add(container, name, content);
  }
  // Reading a sheet costs like touching each unpacked byte a few times.
  ctx.chargeWork(4 * unpacked);
  const stored: Buffer = XLSX.CFB.write(container, { fileType: 'zip', type: 'buffer', compression: false });
  const options: SheetJs.ParsingOptions = {
    type: 'buffer',
    dense: true,
    cellFormula: false,
    cellHTML: false,
    cellStyles: false,
    cellText: true,
    bookVBA: false,
  };
  let workbook: SheetJs.WorkBook;
  try {
    workbook = XLSX.read(stored, { ...options, bookSheets: true });
    const index = Number(sheetNumber) - 1;
    if (sheetNumber < 1n || index >= workbook.SheetNames.length) return undefined;
    workbook = XLSX.read(stored, {
      ...options,
      sheets: index,
      ...(rowLimit !== undefined ? { sheetRows: Math.max(1, rowLimit) } : {}),
    });
  } catch (error) {
    throw panic(`xlsx: ${(error as Error).message}`);
  }
  const sheet = workbook.Sheets[workbook.SheetNames[Number(sheetNumber) - 1]];
  if (!sheet?.['!ref']) return { rows: [] };
  const used = XLSX.utils.decode_range(sheet['!ref']);
  const rows = XLSX.utils.sheet_to_json<string[]>(sheet, {
    header: 1,
    raw: false,
    defval: '',
    blankrows: true,
    range: { s: { r: 0, c: 0 }, e: used.e },
  });
  // Blank rows come back empty and short rows short: every row is made as wide as the sheet.
  const width = used.e.c + 1;
  return {
    rows: rows.map((row) =>
      Array.from({ length: width }, (_, i) => (row[i] === undefined ? '' : String(row[i]))),
    ),
  };
}

/**
 * GetDataFromXLSX(binId, line, count, sheet) → `count` rows from row `line` (0 is the first), each an
 * array of its cells' text. A binary the ecosystem does not have, or a sheet the file does not have, gives
 * no rows, as in the reference.
 */
async function getDataFromXlsx(
  ctx: BuiltinContext,
  binId: Value,
  lineArg: Value,
  countArg: Value,
  sheetArg: Value,
): Promise<Value> {
  const line = intArg(lineArg, 'line');
  const count = intArg(countArg, 'count');
  const sheetNumber = intArg(sheetArg, 'sheet');
  if (line < 0n) throw panic(`line ${line} must not be negative`);
  const file = await binaryData(ctx, binId);
  if (!file || count <= 0n) return [];
  const last = line + count;
  const sheet = readSheet(
    await sheetJs(),
    ctx,
    file,
    sheetNumber,
    last > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(last),
  );
  if (!sheet) return [];
  return sheet.rows.slice(Number(line), Number(last > BigInt(sheet.rows.length) ? sheet.rows.length : last));
}

/** GetRowsCountXLSX(binId, sheet) → rows of the sheet, from the first to the last one used. */
async function getRowsCountXlsx(ctx: BuiltinContext, binId: Value, sheetArg: Value): Promise<Value> {
  const sheetNumber = intArg(sheetArg, 'sheet');
  const file = await binaryData(ctx, binId);
  if (!file) throw panic(`binary ${intArg(binId, 'binary id')} has not been found`);
  return BigInt(readSheet(await sheetJs(), ctx, file, sheetNumber)?.rows.length ?? 0);
}

export const SPREADSHEET_BUILTINS: BuiltinDef[] = [
  { name: 'GetDataFromXLSX', fn: getDataFromXlsx, params: 4 },
  { name: 'GetRowsCountXLSX', fn: getRowsCountXlsx, params: 2 },
];
