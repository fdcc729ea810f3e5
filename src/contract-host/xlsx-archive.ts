import { inflateRawSync } from 'node:zlib';

/**
 * The entries of a ZIP archive (an XLSX file is one), unpacked within bounds before any spreadsheet
 * library sees them. A few kilobytes of deflated data can claim or unpack to gigabytes, and the XLSX
 * library trusts what the archive claims (it allocates the declared size, and inflates as long as the data
 * goes on): here every entry is inflated by the platform's zlib with a hard cap on its output, so a file
 * that unpacks to more than the bound fails, the same way on every node, before it costs more.
 *
 * Read from the central directory (APPNOTE.TXT 4.3): end record, directory entries, local headers.
 */

export class ArchiveError extends Error {}

/** Go's archive/zip error for what is not a ZIP archive, as the reference reports it. */
const NOT_A_ZIP = 'zip: not a valid zip file';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_RECORD_SIZE = 22;
const MAX_COMMENT = 0xffff;

export interface ArchiveLimits {
  /** Entries the archive may have. */
  entries: number;
  /** Bytes all entries may unpack to together. */
  unpackedBytes: number;
}

function endOfDirectory(data: Buffer): number {
  const earliest = Math.max(0, data.length - END_RECORD_SIZE - MAX_COMMENT);
  for (let at = data.length - END_RECORD_SIZE; at >= earliest; at--) {
    if (data.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new ArchiveError(NOT_A_ZIP);
}

/** Entry name → content. Refuses ZIP64, encryption, methods other than stored and deflated, repeats. */
export function unpackArchive(bytes: Uint8Array, limits: ArchiveLimits): Map<string, Buffer> {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length < END_RECORD_SIZE) throw new ArchiveError(NOT_A_ZIP);
  const end = endOfDirectory(data);
  const count = data.readUInt16LE(end + 10);
  const directorySize = data.readUInt32LE(end + 12);
  const directoryStart = data.readUInt32LE(end + 16);
  if (data.readUInt16LE(end + 4) !== 0 || data.readUInt16LE(end + 6) !== 0) {
    throw new ArchiveError('zip: multi-disk archives are not supported');
  }
  if (count === 0xffff || directoryStart === 0xffffffff) {
    throw new ArchiveError('zip: ZIP64 archives are not supported');
  }
  if (directoryStart + directorySize > end) throw new ArchiveError(NOT_A_ZIP);
  if (count > limits.entries) throw new ArchiveError(`zip: more than ${limits.entries} entries`);

  const entries = new Map<string, Buffer>();
  let unpacked = 0;
  let at = directoryStart;
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || data.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new ArchiveError(NOT_A_ZIP);
    const flags = data.readUInt16LE(at + 8);
    const method = data.readUInt16LE(at + 10);
    const packedSize = data.readUInt32LE(at + 20);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const localStart = data.readUInt32LE(at + 42);
    const nameEnd = at + 46 + nameLength;
    if (nameEnd > end) throw new ArchiveError(NOT_A_ZIP);
    const name = data.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, nameEnd);
    at = nameEnd + extraLength + commentLength;
    if (flags & 0x1) throw new ArchiveError('zip: encrypted entries are not supported');
    if (entries.has(name)) throw new ArchiveError(`zip: entry ${name} is repeated`);

    if (localStart + 30 > directoryStart || data.readUInt32LE(localStart) !== LOCAL_HEADER) {
      throw new ArchiveError(NOT_A_ZIP);
    }
    const dataStart =
      localStart + 30 + data.readUInt16LE(localStart + 26) + data.readUInt16LE(localStart + 28);
    if (dataStart + packedSize > directoryStart) throw new ArchiveError(NOT_A_ZIP);
    const packed = data.subarray(dataStart, dataStart + packedSize);
    const room = limits.unpackedBytes - unpacked;
    let content: Buffer;
    if (method === 0) {
      if (packed.length > room) throw tooLarge(limits);
      content = Buffer.from(packed);
    } else if (method === 8) {
      try {
        content = inflateRawSync(packed, { maxOutputLength: Math.max(1, room) });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limits);
        throw new ArchiveError(`zip: ${name}: ${(error as Error).message}`);
      }
      if (content.length > room) throw tooLarge(limits);
    } else {
      throw new ArchiveError(`zip: unsupported compression algorithm ${method}`);
    }
    unpacked += content.length;
    entries.set(name, content);
  }
  return entries;
}

function tooLarge(limits: ArchiveLimits): ArchiveError {
  return new ArchiveError(`the file unpacks to more than ${limits.unpackedBytes} bytes`);
}
