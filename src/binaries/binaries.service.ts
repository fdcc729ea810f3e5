import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { NodeCrypto } from '../chain/node-crypto.service';
import { ApiError } from '../common/api-error';
import { asBuffer, DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { TableCatalog } from '../table-access/catalog';
import { BinaryEntity } from './entities/binary.entity';

export interface Download {
  data: Buffer;
  mimeType: string;
  /** The stored file name; absent for a column's data. */
  name?: string;
}

const INT64_MAX = 2n ** 63n - 1n;

/** A row id of the path: a decimal int64, else undefined. */
function rowId(text: string): bigint | undefined {
  if (!/^-?\d{1,19}$/.test(text)) return undefined;
  const id = BigInt(text);
  return id > INT64_MAX || id < -INT64_MAX - 1n ? undefined : id;
}
/** Only ecosystem tables (`<ecosystem>_<name>`) serve their columns; platform tables never do. */
const ECOSYSTEM_TABLE = /^\d{1,19}_[a-z0-9_]{1,64}$/;

/**
 * Downloads of stored bytes that the client proves to know the hash of: a binary of `1_binaries`, or a
 * column of an ecosystem table. The hash is the MD5 (32 hex digits) or the node's hash (64) of the bytes.
 */
const BINARIES = new EntityTable(BinaryEntity);
const DOWNLOAD = BINARIES.select('data', 'mimeType', 'name');

@Injectable()
export class BinariesService {
  constructor(
    private readonly db: DatabaseService,
    private readonly crypto: NodeCrypto,
  ) {}

  async binary(idText: string, hash: string): Promise<Download> {
    const id = rowId(idText);
    const row =
      id === undefined
        ? undefined
        : await this.db.one<RowOf<typeof DOWNLOAD>>(
            `SELECT ${DOWNLOAD} FROM ${BINARIES.name} WHERE ${BINARIES.column('id')} = $1`,
            [id.toString()],
          );
    if (!row) throw new ApiError('E_NOTFOUND');
    const data = asBuffer(row.data);
    this.checkHash(data, hash);
    return { data, mimeType: row.mimeType || 'application/octet-stream', name: row.name };
  }

  async columnData(table: string, idText: string, column: string, hash: string): Promise<Download> {
    const id = rowId(idText);
    if (id === undefined) throw new ApiError('E_PARAMNOTFOUND', 'id');
    const info = ECOSYSTEM_TABLE.test(table)
      ? (await new TableCatalog(this.db).columns(table))?.get(column)
      : undefined;
    if (!info) throw new ApiError('E_NOTFOUND');
    // Both names come from the catalogue, which holds them exactly as checked above.
    const value = info.type === 'bytea' ? `"${info.name}"` : `"${info.name}"::text`;
    const row = await this.db.one<{ value: unknown }>(
      `SELECT ${value} AS "value" FROM "${table}" WHERE "id" = $1`,
      [id.toString()],
    );
    if (!row || row.value === null) throw new ApiError('E_NOTFOUND');
    const data = typeof row.value === 'string' ? Buffer.from(row.value, 'utf8') : asBuffer(row.value);
    this.checkHash(data, hash);
    return { data, mimeType: 'application/octet-stream' };
  }

  private checkHash(data: Buffer, hash: string): void {
    const wanted = hash.toLowerCase();
    let actual: string | undefined;
    if (/^[0-9a-f]{32}$/.test(wanted)) actual = createHash('md5').update(data).digest('hex');
    else if (/^[0-9a-f]{64}$/.test(wanted)) actual = this.crypto.hasher.hashHex(data);
    if (actual !== wanted) throw new ApiError('E_HASHWRONG');
  }
}
