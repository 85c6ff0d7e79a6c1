/**
 * Definitions see UTC wherever JavaScript would use the machine's time zone, so results do not
 * depend on where they are computed (docs/pipelines.md, "Security and limits"). Two parts:
 * - utcDatePrototype(), before lockdown: the local-time methods of Date.prototype (getHours,
 *   setDate, toString, getTimezoneOffset, ...) become their UTC forms in this realm. Only worker
 *   realms and tests run definitions; host code uses toISOString and Date.now, unchanged;
 * - makeSandboxDate(), for a compartment: a Date whose constructor reads dates given by parts
 *   (`new Date(2026, 0, 1)`) and date strings without a zone as UTC, as Date.UTC does.
 * (Node analysis workers also run with TZ=UTC, which covers what user code could still reach.)
 */

const PARTS = ['FullYear', 'Month', 'Date', 'Day', 'Hours', 'Minutes', 'Seconds', 'Milliseconds'] as const;

/** The realm's own local offset, kept for reading zone-less strings as UTC. */
let localOffsetOf: ((date: Date) => number) | null = null;

export function utcDatePrototype(): void {
  if (localOffsetOf !== null) return;
  const proto = Date.prototype as unknown as Record<string, unknown>;
  const original = Date.prototype.getTimezoneOffset;
  localOffsetOf = (date) => Reflect.apply(original, date, []) as number;
  const define = (name: string, value: unknown) => Object.defineProperty(proto, name, { value, writable: true, enumerable: false, configurable: true });
  for (const part of PARTS) {
    define(`get${part}`, proto[`getUTC${part}`]);
    if (part !== 'Day') define(`set${part}`, proto[`setUTC${part}`]);
  }
  define('getTimezoneOffset', function getTimezoneOffset(this: Date): number {
    return Number.isNaN(this.getTime()) ? NaN : 0;
  });
  const toUTCString = Date.prototype.toUTCString;
  const toLocale = (method: 'toLocaleString' | 'toLocaleDateString' | 'toLocaleTimeString') => {
    const base = Date.prototype[method];
    return function (this: Date, locales?: string | string[], options?: Intl.DateTimeFormatOptions): string {
      return Reflect.apply(base, this, [locales, { ...options, timeZone: 'UTC' }]) as string;
    };
  };
  define('toString', function toString(this: Date): string {
    return Number.isNaN(this.getTime()) ? 'Invalid Date' : `${Reflect.apply(toUTCString, this, [])} +0000 (UTC)`;
  });
  define('toDateString', function toDateString(this: Date): string {
    return Number.isNaN(this.getTime()) ? 'Invalid Date' : (Reflect.apply(toUTCString, this, []) as string).slice(0, 16).replace(',', '');
  });
  define('toTimeString', function toTimeString(this: Date): string {
    return Number.isNaN(this.getTime()) ? 'Invalid Date' : `${(Reflect.apply(toUTCString, this, []) as string).slice(17, 25)} GMT+0000 (UTC)`;
  });
  define('toLocaleString', toLocale('toLocaleString'));
  define('toLocaleDateString', toLocale('toLocaleDateString'));
  define('toLocaleTimeString', toLocale('toLocaleTimeString'));
}

/** A string that names its zone (Z, +01:00, UTC, GMT) or is a date-only ISO date, which JavaScript already reads as UTC. */
const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2}|\bUTC\b|\bGMT\b)\s*(?:\([^)]*\))?\s*$|^\d{4}(?:-\d{2}(?:-\d{2})?)?$/i;

/** Date.parse, reading a string without a zone as UTC. */
function parseAsUtc(base: DateConstructor, text: string): number {
  const parsed = base.parse(text);
  if (Number.isNaN(parsed) || HAS_ZONE.test(text.trim()) || localOffsetOf === null) return parsed;
  return parsed - localOffsetOf(new base(parsed)) * 60_000;
}

/** The compartment's Date (see the file comment); `base` is the compartment's own. */
export function makeSandboxDate(base: DateConstructor): DateConstructor {
  function Date(this: unknown, ...args: unknown[]): unknown {
    if (new.target === undefined) return Reflect.apply(base, undefined, args);
    let fixed = args;
    if (args.length >= 2) fixed = [Reflect.apply(base.UTC, undefined, args)];
    else if (args.length === 1 && typeof args[0] === 'string') fixed = [parseAsUtc(base, args[0])];
    return Reflect.construct(base, fixed, new.target === Date ? base : new.target);
  }
  Object.defineProperties(Date, {
    prototype: { value: base.prototype, writable: false, enumerable: false, configurable: false },
    UTC: { value: base.UTC },
    now: { value: base.now },
    parse: { value: (text: unknown) => parseAsUtc(base, String(text)) },
  });
  return harden(Date) as unknown as DateConstructor;
}
