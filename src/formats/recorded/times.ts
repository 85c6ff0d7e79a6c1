/**
 * Time readers for the units recorded formats use (FORMATS.md trap 3); all return epoch
 * milliseconds with fractions, so microseconds survive where the format has them.
 */
import { FormatError } from '../format-error.ts';
import { describeValue } from '../validate.ts';

/** The largest time a JavaScript Date holds (±100 000 000 days from 1970, in ms). */
export const MAX_TIME_MS = 8.64e15;

/**
 * A time read from a file, checked to be one a Date can show: 1e22 ns, or digits that overflow to
 * Infinity, are refused naming the field, instead of blanking a view or printing "NaN ms".
 */
export function checkedTime(ms: number | null, path: string, raw: unknown): number | null {
  if (ms === null) return null;
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_TIME_MS) {
    const shown = typeof raw === 'string' ? JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw) : String(raw);
    throw new FormatError(path, `a time out of range (${shown}): past the years a date can hold`);
  }
  return ms;
}

/** Nanoseconds as a decimal string (OTLP) or a number (Tempo; already rounded by JSON). */
export function nanosToMs(value: unknown, path: string): number | null {
  return checkedTime(readNanosToMs(value, path), path, value);
}

function readNanosToMs(value: unknown, path: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && /^\d+$/.test(value)) {
    if (value === '0') return null;
    const whole = value.length > 6 ? Number(value.slice(0, -6)) : 0;
    return whole + Number(value.slice(-6)) / 1e6;
  }
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value === 0 ? null : value / 1e6;
  throw new FormatError(path, `expected nanoseconds (a string of digits or a number), ${describeValue(value)}`);
}

/** Microseconds (Jaeger). */
export function microsToMs(value: unknown, path: string): number | null {
  return checkedTime(readMicrosToMs(value, path), path, value);
}

function readMicrosToMs(value: unknown, path: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value / 1e3;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value) / 1e3;
  throw new FormatError(path, `expected microseconds (a number), ${describeValue(value)}`);
}

/** ISO 8601 text, keeping fractions beyond milliseconds (`2026-10-03T00:45:57.360650Z`, `+00:00`). */
export function isoToMs(value: unknown, path: string): number | null {
  return checkedTime(readIsoToMs(value, path), path, value);
}

function readIsoToMs(value: unknown, path: string): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw new FormatError(path, `expected an ISO 8601 time, ${describeValue(value)}`);
  const m = /^(\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?)(\.\d+)?(Z|[+-]\d\d:?\d\d)?$/i.exec(value.trim());
  if (m) {
    const base = Date.parse(`${m[1].replace(' ', 'T')}${m[3] ?? 'Z'}`);
    if (Number.isFinite(base)) return base + (m[2] ? Number(`0${m[2]}`) * 1000 : 0);
  }
  const parsed = Date.parse(value);
  if (!Number.isFinite(parsed)) throw new FormatError(path, `expected an ISO 8601 time, got ${JSON.stringify(value.slice(0, 40))}`);
  return parsed;
}

/** `[seconds, nanoseconds]` (JS ReadableSpan hrtime). */
export function hrTimeToMs(value: unknown, path: string): number | null {
  return checkedTime(readHrTimeToMs(value, path), path, value);
}

function readHrTimeToMs(value: unknown, path: string): number | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value) && value.length === 2 && value.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    return (value[0] as number) * 1e3 + (value[1] as number) / 1e6;
  }
  throw new FormatError(path, `expected [seconds, nanoseconds], ${describeValue(value)}`);
}

/** Epoch milliseconds as a number (LangSmith JS) or ISO text (LangSmith Python). */
export function msOrIsoToMs(value: unknown, path: string): number | null {
  return checkedTime(readMsOrIsoToMs(value, path), path, value);
}

function readMsOrIsoToMs(value: unknown, path: string): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new FormatError(path, `expected a time, got ${value}`);
    return value;
  }
  return isoToMs(value, path);
}

/** Unix seconds as a float (runtape `ts`). */
export function secondsToMs(value: unknown, path: string): number | null {
  return checkedTime(readSecondsToMs(value, path), path, value);
}

function readSecondsToMs(value: unknown, path: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value * 1e3;
  throw new FormatError(path, `expected unix seconds (a number), ${describeValue(value)}`);
}
