import type { Request } from 'express';
import type { Caller } from '../common/caller';

export interface UploadedPart {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

/** The express request as the API layer sees it after its middleware has run. */
export interface ApiRequest extends Request {
  caller: Caller;
  /** Non-file multipart fields, in arrival order (urlencoded bodies land in `body` as usual). */
  multipartFields?: [string, string][];
  files?: UploadedPart[];
  /** The raw body of a JSON-RPC request. */
  rawBody?: Buffer;
}
