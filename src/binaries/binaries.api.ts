import { Controller, Get } from '@nestjs/common';
import contentDisposition from 'content-disposition';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import { Form } from '../http/form';
import { RawBody } from '../http/responses';
import { BinariesService, type Download } from './binaries.service';
import { BinaryPath, ColumnDataPath } from './binaries.dto';

function download(file: Download): RawBody {
  return new RawBody(file.data, file.mimeType, {
    'Content-Disposition': file.name === undefined ? 'attachment' : contentDisposition(file.name),
    'Access-Control-Allow-Origin': '*',
  });
}

/** Binary data, served at the root (interface document) and under `/api/v2` (reference), no session needed. */
@Controller()
export class BinariesController {
  constructor(private readonly binaries: BinariesService) {}

  @ApiRoute({
    summary: 'A stored binary (file) by id, when the hash matches its bytes',
    description:
      'Reads the `1_binaries` row by id, whatever its ecosystem, and sends its raw bytes as an attachment ' +
      'with the stored file name and content type. `hash` (either case) is the MD5 (32 hex digits) or the node ' +
      'hash (64, Keccak-256 by default) of the bytes; any other value is 400 E_HASHWRONG. An id that is not a ' +
      'decimal integer or names no row is 404 E_NOTFOUND; no session needed.',
    answer: s.string('the bytes, with the stored content type, as an attachment'),
    errors: ['E_NOTFOUND', 'E_HASHWRONG'],
  })
  @Get(['data/:id/data/:hash', 'api/v2/data/:id/data/:hash'])
  async binary(@Form() { id, hash }: BinaryPath) {
    return download(await this.binaries.binary(id, hash));
  }

  @ApiRoute({
    summary: 'The value of a column of a row of an ecosystem table, when the hash matches it',
    description:
      'Only ecosystem tables named `<ecosystem>_<name>` (e.g. 1_binaries): a bytea value is sent as its raw ' +
      'bytes, any other as its text in UTF-8, as application/octet-stream attachment. `hash` is the MD5 (32 ' +
      'hex) or node hash (64 hex) of those bytes, else 400 E_HASHWRONG. An id that is not a decimal int64 is ' +
      '404 E_PARAMNOTFOUND; an unknown table, column or row, or a NULL value, is 404 E_NOTFOUND.',
    answer: s.string('the bytes, as an attachment'),
    errors: ['E_PARAMNOTFOUND', 'E_NOTFOUND', 'E_HASHWRONG'],
  })
  @Get(['data/:table/:id/:column/:hash', 'api/v2/data/:table/:id/:column/:hash'])
  async columnData(@Form() { table, id, column, hash }: ColumnDataPath) {
    return download(await this.binaries.columnData(table, id, column, hash));
  }
}
