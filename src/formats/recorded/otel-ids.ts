/**
 * OTel trace and span ids arrive as lower-case hex (OTLP/JSON as specified), base64 (protobuf
 * JSON from MessageToDict), `0x` hex (Python console exporter) or decimal integers (any-agent).
 * All become lower-case hex (FORMATS.md trap 2). Empty or all-zero ids mean "none".
 */
import { FormatError } from '../format-error.ts';
import { describeValue } from '../validate.ts';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function base64ToHex(text: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let bits = 0;
  let buffer = 0;
  let hex = '';
  for (const ch of text.replace(/=+$/, '')) {
    buffer = (buffer << 6) | alphabet.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      hex += ((buffer >> bits) & 0xff).toString(16).padStart(2, '0');
    }
  }
  return hex;
}

/**
 * @param width hex digits of this id kind (16 for spans, 32 for traces), used to pad decimals
 * @param decimal the format writes ids as decimal integers (any-agent), so digits are not hex
 */
export function normalizeOtelId(value: unknown, path: string, width: 16 | 32, decimal = false): string | null {
  if (value === undefined || value === null || value === '') return null;
  let hex: string;
  if (typeof value === 'number' || (decimal && typeof value === 'string' && /^\d+$/.test(value))) {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new FormatError(path, `an id beyond 2^53 was rounded (${value}); read the file with big integers kept`);
    hex = BigInt(value).toString(16).padStart(width, '0');
  } else if (typeof value !== 'string') {
    throw new FormatError(path, `expected an id (hex, base64 or an integer), ${describeValue(value)}`);
  } else if (/^0x[0-9a-f]+$/i.test(value)) {
    hex = value.slice(2).toLowerCase().padStart(width, '0');
  } else if (/^[0-9a-f]+$/i.test(value) && (value.length === 16 || value.length === 32)) {
    hex = value.toLowerCase();
  } else if (BASE64.test(value) && value.length % 4 === 0) {
    hex = base64ToHex(value);
  } else if (/^[0-9a-f]+$/i.test(value)) {
    hex = value.toLowerCase();
  } else {
    throw new FormatError(path, `expected an id (hex, base64 or an integer), got ${JSON.stringify(value.slice(0, 40))}`);
  }
  return /^0+$/.test(hex) ? null : hex;
}
