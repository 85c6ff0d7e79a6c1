/**
 * The bounds of a numeric setting, and the one check and wording every host uses: the command's
 * flags, the session validator, the address and the settings panel all refuse a value with the
 * same words, so they cannot drift apart.
 */
export interface NumberBounds {
  /** Lowest value allowed (-Infinity: none). */
  readonly min: number;
  /** The lowest value itself is refused (a value must be greater). */
  readonly minExclusive?: boolean;
  /** Highest value allowed (Infinity: none). */
  readonly max: number;
  readonly maxExclusive?: boolean;
  /** Whole numbers only. */
  readonly integer: boolean;
  /**
   * Infinity stands for "none" (no budget, no cap): written `none` on the command line and in the
   * address, null in session files, an empty field in the panel.
   */
  readonly none?: boolean;
}

/** The text a host reads for "none" (the command's flags and the address). */
export const NONE_TEXT = 'none';

/** A bound as people write it: 2^53 - 1 rather than sixteen digits. */
function show(x: number): string {
  return x === Number.MAX_SAFE_INTEGER ? '2^53 - 1' : String(x);
}

/** What the bounds expect, in words ("a whole number from 1 to 100000", "a number strictly between 0 and 1"). */
export function expectedText(b: NumberBounds): string {
  const kind = b.integer ? 'a whole number' : 'a number';
  const low = Number.isFinite(b.min);
  const high = Number.isFinite(b.max);
  let text: string;
  if (low && high && b.minExclusive && b.maxExclusive) text = `${kind} strictly between ${show(b.min)} and ${show(b.max)}`;
  else if (low && high && !b.minExclusive && !b.maxExclusive) text = `${kind} from ${show(b.min)} to ${show(b.max)}`;
  else {
    const parts = [
      ...(low ? [b.minExclusive ? `greater than ${show(b.min)}` : `of at least ${show(b.min)}`] : []),
      ...(high ? [b.maxExclusive ? `less than ${show(b.max)}` : `at most ${show(b.max)}`] : []),
    ];
    text = parts.length ? `${kind} ${parts.join(' and ')}` : kind;
  }
  return b.none ? `${text}, or ${NONE_TEXT}` : text;
}

/** Whether `x` lies within the bounds (Infinity only where it means none). */
export function withinBounds(b: NumberBounds, x: number): boolean {
  if (x === Number.POSITIVE_INFINITY && b.none) return true;
  if (!Number.isFinite(x)) return false;
  if (b.integer && !Number.isInteger(x)) return false;
  if (b.minExclusive ? !(x > b.min) : !(x >= b.min)) return false;
  if (b.maxExclusive ? !(x < b.max) : !(x <= b.max)) return false;
  return true;
}

/**
 * A setting's value from text (a flag's value, an address parameter, a panel field): the number,
 * or the problem in words ("expected a whole number from 1 to 100000, got "0""). Empty text is
 * refused; `none` (or an empty panel field, which the panel reads as `none`) means Infinity where
 * the setting allows it.
 */
export function numberFromText(b: NumberBounds, text: string): { value: number } | { problem: string } {
  const trimmed = text.trim();
  const x = b.none && trimmed === NONE_TEXT ? Number.POSITIVE_INFINITY : trimmed === '' ? Number.NaN : Number(trimmed);
  return withinBounds(b, x) ? { value: x } : { problem: `expected ${expectedText(b)}, got "${text}"` };
}
