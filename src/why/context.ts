/**
 * The context of one model call as why edits it: the call's input messages, plain text, with the
 * tool calls an assistant turn made. Pieces of it are addressed by a path (message index, JSON
 * pointer into a message that holds JSON, paragraph and sentence index) so a view can find and
 * highlight them, and a variant of the context is the original with some pieces cut out or replaced.
 */

export type WhyRole = 'system' | 'user' | 'assistant' | 'tool';

export interface WhyToolCall {
  name: string;
  /** The arguments as JSON text (or the text recorded). */
  arguments: string;
}

export interface WhyMessage {
  role: WhyRole;
  text: string;
  /** The tool a tool result answers, or the speaker's name, when recorded. */
  name?: string;
  toolCalls?: WhyToolCall[];
}

/**
 * Where a piece is: message `message`; inside it, the JSON value at `pointer` (RFC 6901) when the
 * message holds JSON; inside that text (the message's, or the string at `pointer`), paragraph
 * `paragraph`, and inside the paragraph, sentence `sentence` (0-based, in reading order).
 */
export interface PiecePath {
  message: number;
  pointer?: string;
  paragraph?: number;
  sentence?: number;
}

export type PieceKind = 'system' | 'message' | 'tool-result' | 'json-item' | 'paragraph' | 'sentence';

export interface Piece {
  /** The path as text: `m3`, `m3/items/0`, `m3:p1`, `m3/body:p0:s2`. */
  id: string;
  kind: PieceKind;
  path: PiecePath;
  text: string;
  /** The piece this one was narrowed from (null for a whole message). */
  parent: string | null;
  depth: number;
}

export function pathId(path: PiecePath): string {
  return `m${path.message}${path.pointer ?? ''}${path.paragraph === undefined ? '' : `:p${path.paragraph}`}${path.sentence === undefined ? '' : `:s${path.sentence}`}`;
}

/** Whether the path names a whole message (replaced by a fill text when removed, never cut). */
export function isWholeMessage(path: PiecePath): boolean {
  return path.pointer === undefined && path.paragraph === undefined && path.sentence === undefined;
}

/** Whether `inner` lies inside `outer` (or is it). */
export function contains(outer: PiecePath, inner: PiecePath): boolean {
  if (outer.message !== inner.message) return false;
  const op = outer.pointer ?? '';
  const ip = inner.pointer ?? '';
  if (outer.paragraph === undefined) return ip === op || ip.startsWith(op + '/');
  if (ip !== op || inner.paragraph !== outer.paragraph) return false;
  return outer.sentence === undefined || inner.sentence === outer.sentence;
}
