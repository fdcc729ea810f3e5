import { getMetadataArgsStorage } from 'typeorm';

/**
 * The text of a select list, carrying the type of the rows it reads (`RowOf`): a template literal takes it
 * as the string it is, and a query names its row type after it.
 */
export type Selection<Row> = string & { readonly __row?: Row };

export type RowOf<S> = S extends Selection<infer Row> ? Row : never;

/**
 * An entity's table for the raw-SQL paths, where the query builder would cost a request more than the
 * query does: the table and column names come from the entity's decorators, so that the entity stays the
 * one declaration of the row and renaming a column is one change the compiler follows.
 */
export class EntityTable<T> {
  /** The table's name, quoted. */
  readonly name: string;
  private readonly columns = new Map<string, string>();

  constructor(entity: abstract new () => T) {
    const storage = getMetadataArgsStorage();
    const table = storage.tables.find((candidate) => candidate.target === entity);
    if (!table?.name) throw new Error(`${entity.name} is no entity with a table name`);
    this.name = quoted(table.name);
    for (const column of storage.columns) {
      if (column.target !== entity) continue;
      this.columns.set(column.propertyName, column.options.name ?? column.propertyName);
    }
  }

  /** A property's column, quoted (prefixed with `qualifier` when given: a table's alias in a join). */
  column(property: keyof T & string, qualifier?: string): string {
    const name = this.columns.get(property);
    if (name === undefined) throw new Error(`${this.name} has no column for ${property}`);
    return qualifier ? `${quoted(qualifier)}.${quoted(name)}` : quoted(name);
  }

  /** A property's column after the table's name, for a statement where the name alone is ambiguous. */
  qualified(property: keyof T & string): string {
    return `${this.name}.${this.column(property)}`;
  }

  /** The columns of `properties`, as an INSERT lists them. */
  columnList(...properties: (keyof T & string)[]): string {
    return properties.map((property) => this.column(property)).join(', ');
  }

  /**
   * An INSERT of one row: each property's column given the SQL text beside it (a parameter such as `$1`,
   * or a constant), so that a column and its value are read side by side.
   */
  insert(values: Partial<Record<keyof T & string, string>>): string {
    const entries = Object.entries(values) as [keyof T & string, string][];
    return (
      `INSERT INTO ${this.name} (${this.columnList(...entries.map(([property]) => property))}) ` +
      `VALUES (${entries.map(([, value]) => value).join(', ')})`
    );
  }

  /**
   * An UPDATE's SET list: each property's column given the SQL text beside it (a parameter such as `$1`,
   * a constant, or an expression), in the object's order.
   */
  assignments(values: Partial<Record<keyof T & string, string>>): string {
    return Object.entries(values)
      .map(([property, value]) => `${this.column(property as keyof T & string)} = ${value as string}`)
      .join(', ');
  }

  /** The columns of `properties`, each read under its property's name, so that a row has the entity's members. */
  select<K extends keyof T & string>(...properties: K[]): Selection<Pick<T, K>> {
    return this.selectIn(undefined, ...properties);
  }

  /** As `select`, from the table under an alias (`qualifier`) in a join. */
  selectIn<K extends keyof T & string>(
    qualifier: string | undefined,
    ...properties: K[]
  ): Selection<Pick<T, K>> {
    return properties
      .map((property) => {
        const column = this.column(property, qualifier);
        return this.columns.get(property) === property ? column : `${column} AS ${quoted(property)}`;
      })
      .join(', ');
  }
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
