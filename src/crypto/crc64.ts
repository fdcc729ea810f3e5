// Hand-written: no maintained npm package computes CRC-64/XZ (Go's crc64.ECMA) as a 64-bit bigint.

/** Reflected form of the ECMA-182 polynomial, as in Go's `crc64.ECMA` table. */
const POLY_REFLECTED = 0xc96c5795d7870f42n;
const ALL_ONES = 0xffffffffffffffffn;

const TABLE = buildTable();

function buildTable(): BigUint64Array {
  const table = new BigUint64Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = BigInt(byte);
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 1n ? (crc >> 1n) ^ POLY_REFLECTED : crc >> 1n;
    }
    table[byte] = crc;
  }
  return table;
}

/** CRC-64/XZ: init and final xor all-ones, reflected in and out. Returns the unsigned 64-bit value. */
export function crc64(data: Uint8Array): bigint {
  let crc = ALL_ONES;
  for (const byte of data) {
    crc = TABLE[Number(crc & 0xffn) ^ byte] ^ (crc >> 8n);
  }
  return crc ^ ALL_ONES;
}
