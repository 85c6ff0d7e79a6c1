import { MAX_MESSAGE_LENGTH } from './limits.ts';

/**
 * A message cut to `max` characters with a note saying how much was left out: messages carry
 * text from user code (a thrown error), and one huge message must not break the output of a
 * whole run (JSON.stringify fails past about 512 MB).
 */
export function boundText(text: string, max = MAX_MESSAGE_LENGTH): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}... (${text.length - max} more characters cut)`;
}
