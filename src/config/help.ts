import { z } from 'zod';
import { environmentSchema } from './config.schema';

/** What `--help` prints: how to start the node, then every setting with its default, from the schema. */
export function helpText(): string {
  const rows = Object.entries(environmentSchema.shape).map(([name, schema]) => [
    name,
    shownDefault(schema),
    schema.description ?? '',
  ]);
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column].length)));
  const table = rows.map(([name, value, meaning]) =>
    `  ${name.padEnd(widths[0])}  ${value.padEnd(widths[1])}  ${meaning}`.trimEnd(),
  );
  return [
    'Usage: npm start [-- --help | --version]',
    '       node dist/main.js [--help | --version]',
    '',
    'Starts an IBAX node: REST API v2 at /api/v2 and JSON-RPC at / on one port.',
    'Settings come from the environment; a .env file in the working directory fills what it leaves unset.',
    '',
    '  --help     print this and exit',
    '  --version  print the version and exit',
    '',
    'Settings:',
    ...table,
    '',
  ].join('\n');
}

function shownDefault(schema: z.ZodType): string {
  // A prefault is a default given as the setting is written ("5m"), parsed like a value from the environment.
  if (!(schema instanceof z.ZodDefault) && !(schema instanceof z.ZodPrefault)) return 'unset';
  const value: unknown = schema.def.defaultValue;
  return Array.isArray(value) ? value.join(',') : String(value);
}
