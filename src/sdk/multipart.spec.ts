import busboy from 'busboy';
import { describe, expect, it } from 'vitest';
import { multipartBody } from './multipart';

/** What a multipart parser (the one the node's uploads go through) reads back from a body. */
function parse(body: Buffer, contentType: string) {
  return new Promise<{ name: string; value: string; file?: { filename: string; mimeType: string } }[]>(
    (resolve, reject) => {
      const parts: { name: string; value: string; file?: { filename: string; mimeType: string } }[] = [];
      const parser = busboy({ headers: { 'content-type': contentType } });
      parser.on('field', (name, value) => parts.push({ name, value }));
      parser.on('file', (name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () =>
          parts.push({
            name,
            value: Buffer.concat(chunks).toString('hex'),
            file: { filename: info.filename ?? '', mimeType: info.mimeType },
          }),
        );
      });
      parser.on('close', () => resolve(parts));
      parser.on('error', reject);
      parser.end(body);
    },
  );
}

describe('multipartBody', () => {
  it('writes text fields and bytes as file parts that a parser reads back exactly', async () => {
    const bytes = Uint8Array.from([0, 13, 10, 45, 45, 255]);
    const { body, contentType } = multipartBody({ lang: 'fr', 'name "x"': 'a\r\nb', tx0: bytes });
    expect(await parse(body, contentType)).toEqual([
      { name: 'lang', value: 'fr' },
      { name: 'name %22x%22', value: 'a\r\nb' },
      {
        name: 'tx0',
        value: '000d0a2d2dff',
        file: { filename: 'blob', mimeType: 'application/octet-stream' },
      },
    ]);
  });

  it('gives each body its own boundary', () => {
    expect(multipartBody({}).contentType).not.toBe(multipartBody({}).contentType);
  });
});
