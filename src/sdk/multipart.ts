import { randomBytes } from 'node:crypto';

/** A form field: text, or bytes sent as a file part (as a browser's FormData sends a Blob). */
export type MultipartValue = string | Uint8Array;

/**
 * A `multipart/form-data` body (RFC 7578) in one buffer. Written here rather than with fetch's FormData:
 * undici streams every part of a FormData through web streams and a Blob of its own, which made a load
 * generator sending 50-transaction batches spend most of its CPU there (`makeTransferable`, Blob reads,
 * stream pulls), more than the node it was measuring. Bytes go as file parts named like FormData's
 * (`filename="blob"`, `application/octet-stream`), so a node sees the same request as before.
 */
export function multipartBody(fields: Record<string, MultipartValue>): { body: Buffer; contentType: string } {
  const boundary = `----ibax${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const quoted = quote(name);
    const head =
      typeof value === 'string'
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${quoted}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${quoted}"; filename="blob"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n';
    chunks.push(Buffer.from(head), typeof value === 'string' ? Buffer.from(value) : toBuffer(value));
    chunks.push(CRLF);
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const CRLF = Buffer.from('\r\n');

/** A field name as the HTML form encoding writes it inside quotes (what FormData does too). */
function quote(name: string): string {
  return name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
