/**
 * What a number field of the settings panel makes of its text, by the setting's bounds in the
 * settings schema (the same check as the command's flags, session files and the address): the
 * value, or the problem the field shows. An empty field means none where the setting allows it.
 */
import { NONE_TEXT, numberFromText, type NumberBounds } from '../../engine/settings/number-setting.ts';

export function panelNumber(bounds: NumberBounds, text: string): { value: number } | { problem: string } {
  const read = numberFromText(bounds, bounds.none && text.trim() === '' ? NONE_TEXT : text);
  if ('value' in read) return read;
  // The field names itself: the problem without the value typed.
  return { problem: `${read.problem.replace(/, got ".*"$/s, '').replace(/^expected/, 'Expected')}.` };
}
