import type { DefinitionProblem } from '../../pool/page/protocol.ts';

/**
 * A compile error as plain data, with the line and column of the user's file when the message
 * names one (`pipeline.js:12:5: ...`), so the source view can mark that line.
 */
export function describeProblem(error: unknown, fileName = 'pipeline.js'): DefinitionProblem {
  const message = error instanceof Error ? error.message : String(error);
  const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const position = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(message);
  return position ? { message, line: Number(position[1]), column: Number(position[2]) } : { message };
}
