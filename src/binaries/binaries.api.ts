import { Controller, Get, Param } from '@nestjs/common';
import contentDisposition from 'content-disposition';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import { RawBody } from '../common/http/responses';
import { BinariesService, type Download } from './binaries.service';

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
    path: {
      id: 'binary id',
      hash: 'MD5 (32 hex digits) or the node hash (64) of the bytes',
    },
    answer: s.string('the bytes, with the stored content type, as an attachment'),
    errors: ['E_NOTFOUND', 'E_HASHWRONG'],
  })
  @Get(['data/:id/data/:hash', 'api/v2/data/:id/data/:hash'])
  async binary(@Param('id') id: string, @Param('hash') hash: string) {
    return download(await this.binaries.binary(id, hash));
  }

  @ApiRoute({
    summary: 'The value of a column of a row of an ecosystem table, when the hash matches it',
    path: {
      table: 'physical table name, e.g. 1_binaries',
      id: 'row id',
      column: 'column name',
      hash: 'MD5 (32 hex digits) or the node hash (64) of the value',
    },
    answer: s.string('the bytes, as an attachment'),
    errors: ['E_PARAMNOTFOUND', 'E_NOTFOUND', 'E_HASHWRONG'],
  })
  @Get(['data/:table/:id/:column/:hash', 'api/v2/data/:table/:id/:column/:hash'])
  async columnData(
    @Param('table') table: string,
    @Param('id') id: string,
    @Param('column') column: string,
    @Param('hash') hash: string,
  ) {
    return download(await this.binaries.columnData(table, id, column, hash));
  }
}
