import { IsString } from 'class-validator';
import { Describe, FromPath } from '../common/dto/dto-fields';

/**
 * `GET data/:id/data/:hash`. The id stays text: the service reads it, one that is not a decimal int64
 * finding no binary (E_NOTFOUND), as the reference does.
 */
export class BinaryPath {
  @FromPath()
  @IsString()
  @Describe('binary id')
  id!: string;

  @FromPath()
  @IsString()
  @Describe('MD5 (32 hex digits) or the node hash (64) of the bytes')
  hash!: string;
}

/**
 * `GET data/:table/:id/:column/:hash`. The id stays text: the service refuses one that is not a decimal
 * int64 by naming it (E_PARAMNOTFOUND), as the reference does.
 */
export class ColumnDataPath {
  @FromPath()
  @IsString()
  @Describe('physical table name, e.g. 1_binaries')
  table!: string;

  @FromPath()
  @IsString()
  @Describe('row id')
  id!: string;

  @FromPath()
  @IsString()
  @Describe('column name')
  column!: string;

  @FromPath()
  @IsString()
  @Describe('MD5 (32 hex digits) or the node hash (64) of the value')
  hash!: string;
}
