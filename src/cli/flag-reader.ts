import { UsageError } from './usage-error.ts';

/**
 * Walks a parser's arguments as readCommandLine (command-line.ts) hands them over, once each:
 * `visit(flag, value, arg)` for every flag and positional, where `value()` reads the flag's value
 * (after `=`, or the next argument) and fails naming the flag when there is none. `inline` says
 * which arguments carry their value after `=` (blame's `--fix=STEP=FIX` is one value, not a split).
 */
export function eachArgument(
  argv: readonly string[],
  visit: (flag: string, value: () => string, arg: string) => void,
  { inline = (arg: string) => arg.startsWith('--') && arg.indexOf('=') > 0, missing = (flag: string): Error => new UsageError(`${flag} needs a value`) } = {},
): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = inline(arg) ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    visit(flag, () => {
      if (eq > 0) return arg.slice(eq + 1);
      const next = argv[++i];
      if (next === undefined) throw missing(flag);
      return next;
    }, arg);
  }
}

/** `value` if it is one of `allowed`, else a usage error naming the flag, the choices and the value. */
export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag}: expected one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** The keys of `T` whose field can hold a `V`. */
type FieldsOf<T, V> = { [K in keyof T]-?: V extends T[K] ? K : never }[keyof T];

/** A parser's flags that only set a field: a switch sets it to true, a text flag to its value. */
export interface PlainFlags<T> {
  switches?: Readonly<Record<string, FieldsOf<T, boolean>>>;
  texts?: Readonly<Record<string, FieldsOf<T, string>>>;
}

/** Sets the field of `flag` if it is one of `plain`'s; answers whether it was. */
export function takePlainFlag<T>(options: T, flag: string, value: () => string, plain: PlainFlags<T>): boolean {
  if (plain.switches && Object.hasOwn(plain.switches, flag)) {
    (options[plain.switches[flag]] as boolean) = true;
    return true;
  }
  if (plain.texts && Object.hasOwn(plain.texts, flag)) {
    (options[plain.texts[flag]] as string) = value();
    return true;
  }
  return false;
}
