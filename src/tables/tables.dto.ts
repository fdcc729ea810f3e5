import { IsOptional, IsString, MinLength } from 'class-validator';
import { OptionalInt64, OptionalText, TextInPath } from '../common/dto/common-fields';
import { Describe, FromPath } from '../common/dto/dto-fields';
import {
  handlerRule,
  IsInt64,
  IsJsonValue,
  IsLenientInt64,
  IsUint64,
  MinInt64,
  NotEmptyParams,
} from '../common/dto/validators';

/** The fields most routes share, declared once so that every route describes them alike. */
const TableNameInPath = () => TextInPath('table name (without the ecosystem prefix)');

const LIMIT = 'page size (25 by default, at most 1000)';
const OFFSET = 'rows to skip';
const COLUMNS = 'comma-separated columns (default all the reader may see); id is always included';
/** Read as text here; the handlers parse them (`parseWhereText`, `parseOrderText`) and refuse with E_SERVER. */
const WHERE_TEXT = 'condition in the object syntax, e.g. {"amount": {"$gt": 10}}; empty: every row';
const ORDER_TEXT = 'order: a column, or a map/list of columns and directions as JSON; empty: by id';

/** `GET tables`. */
export class TablesForm {
  @OptionalInt64('tables per page (25 by default, at most 1000)')
  limit?: bigint;

  @OptionalInt64('tables to skip')
  offset?: bigint;
}

/** `GET table/:name`. */
export class TablePath {
  @TableNameInPath()
  name!: string;
}

/** `GET list/:name`. */
export class ListForm {
  @TableNameInPath()
  name!: string;

  @OptionalInt64(LIMIT)
  limit?: bigint;

  @OptionalInt64(OFFSET)
  offset?: bigint;

  @OptionalText(COLUMNS)
  columns?: string;
}

/** `listWhere/:name` and `nodelistWhere/:name`, GET and POST: list's form, with a condition and an order. */
export class ListWhereForm extends ListForm {
  @OptionalText(WHERE_TEXT)
  where?: string;

  @OptionalText(ORDER_TEXT)
  order?: string;
}

/**
 * `sumWhere/:name`, GET and POST. The column is not required to read the form: the reference reads it as
 * an optional value and lets the table's column check refuse an empty one (E_SERVER).
 */
export class SumWhereForm {
  @TableNameInPath()
  name!: string;

  @OptionalText('the number column to sum')
  column?: string;

  @OptionalText(WHERE_TEXT)
  where?: string;
}

/** `GET row/:name/:id`. The id stays text: one that is not a number finds no row (E_NOTFOUND). */
export class RowForm {
  @TableNameInPath()
  name!: string;

  @FromPath()
  @IsString()
  @Describe('row id')
  id!: string;

  @OptionalText(COLUMNS)
  columns?: string;
}

/** `GET row/:name/:column/:id`. */
export class RowByColumnForm {
  @TableNameInPath()
  name!: string;

  @FromPath()
  @IsString()
  @Describe('the column to match')
  column!: string;

  @FromPath()
  @IsString()
  @Describe('its value')
  id!: string;

  @OptionalText(COLUMNS)
  columns?: string;
}

/** `GET history/:name/:id`. */
export class HistoryPath {
  @TableNameInPath()
  name!: string;

  @FromPath()
  @IsLenientInt64()
  @Describe('row id (not a number: 0, which has no history)')
  id!: bigint;
}

/** `getTableCount [offset, limit]`. */
export class TableCountParams {
  @OptionalInt64('tables to skip')
  offset?: bigint;

  @OptionalInt64('tables per page (25 by default, at most 100)')
  limit?: bigint;
}

/** `getTable [tableName]`. */
export class TableParams {
  @IsString()
  @Describe('table name (without the ecosystem prefix); empty is refused')
  @NotEmptyParams()
  tableName!: string;
}

/**
 * `getList {name, limit, offset, columns, where, order}`, one object. `where` is the object syntax as text
 * (the reference) or the object itself (the interface document); `order` a column name, a map, a list, or
 * any of those as JSON text. Their shapes are read by the method, as the REST routes read their texts.
 */
export class ListParams {
  @IsString()
  @Describe('table name (without the ecosystem prefix); absent or empty is refused')
  @NotEmptyParams()
  name!: string;

  @OptionalInt64('page size (25 by default, at most 100)')
  limit?: bigint;

  @OptionalInt64(OFFSET)
  offset?: bigint;

  @OptionalText(COLUMNS)
  columns?: string;

  @IsOptional()
  @IsJsonValue()
  @Describe('condition: an object in the object syntax, or its JSON text', {
    oneOf: [{ type: 'object' }, { type: 'string' }],
  })
  where?: unknown;

  @IsOptional()
  @IsJsonValue()
  @Describe('order: a column name, a map or list of columns and directions, or any of those as JSON text', {
    oneOf: [{ type: 'string' }, { type: 'object' }, { type: 'array' }],
  })
  order?: unknown;
}

/** `getRow [tableName, id, columns?, whereColumn?]`. */
export class RowParams {
  @MinLength(1, handlerRule('tableName or id invalid'))
  @IsString()
  @Describe('table name (without the ecosystem prefix); empty is refused')
  tableName!: string;

  @IsInt64()
  @Describe('row id, or the value of whereColumn')
  id!: bigint;

  @OptionalText(COLUMNS)
  columns?: string;

  @OptionalText('the column to match instead of id')
  whereColumn?: string;
}

/** `history [name, tableId]`. */
export class HistoryParams {
  @MinLength(1, handlerRule('invalid params'))
  @IsString()
  @Describe('table name (without the ecosystem prefix); empty is refused')
  name!: string;

  @MinInt64(1n, handlerRule('invalid params'))
  @IsUint64()
  @Describe('row id; 0 is refused')
  tableId!: bigint;
}
