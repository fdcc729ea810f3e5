import { Writable } from 'node:stream';

/** A line of the node's JSON log (pino): its level, message and whatever else it carries. */
export interface LogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

/** A log destination for a test node that keeps every line it is given, parsed, in `lines`. */
export function capturedLog(): { lines: LogLine[]; destination: Writable } {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line) lines.push(JSON.parse(line) as LogLine);
      callback();
    },
  });
  return { lines, destination };
}
