/**
 * The pieces of a context and their narrower parts (runtape's step 4: JSON items, then paragraphs,
 * then sentences), and a context with pieces removed. A whole message is replaced by a fill text
 * (removing it would change the turn structure); JSON items, paragraphs and sentences are cut out.
 */
import { isWholeMessage, pathId, type Piece, type PiecePath, type WhyMessage } from './context.ts';
import { escapeToken, jsonStyleOf, parseJsonText, removeAt, setAt, valueAt, type Json } from './json-text.ts';
import { cutSpans, paragraphSpans, sentenceSpans, type Span } from './segments.ts';

export const DEFAULT_FILL = '[content removed]';

/** One piece per message with text: the system prompt, each message, each tool result. */
export function topPieces(messages: readonly WhyMessage[]): Piece[] {
  const out: Piece[] = [];
  messages.forEach((m, message) => {
    if (m.text.trim() === '') return;
    const path = { message };
    out.push({ id: pathId(path), kind: m.role === 'system' ? 'system' : m.role === 'tool' ? 'tool-result' : 'message', path, text: m.text, parent: null, depth: 0 });
  });
  return out;
}

/** The text a path's paragraphs and sentences are counted in: the message's, or the JSON string at its pointer. */
function targetText(messages: readonly WhyMessage[], path: PiecePath): string | undefined {
  const text = messages[path.message]?.text;
  if (text === undefined || path.pointer === undefined) return text;
  const json = parseJsonText(text);
  const value = json === undefined ? undefined : valueAt(json, path.pointer);
  return typeof value === 'string' ? value : undefined;
}

/**
 * Why `path` names no piece of the context, or undefined when it names one: a check file's
 * `fix.remove` must name what is there (removing nothing would let any check "pass").
 */
export function missingPiece(messages: readonly WhyMessage[], path: PiecePath): string | undefined {
  const message = messages[path.message];
  if (!message) return `message ${path.message} of a ${messages.length}-message context (messages 0 to ${messages.length - 1})`;
  if (path.pointer !== undefined) {
    const json = parseJsonText(message.text);
    if (json === undefined) return `message ${path.message} is not JSON, so the pointer ${JSON.stringify(path.pointer)} names nothing in it`;
    const value = valueAt(json, path.pointer);
    if (value === undefined) return `message ${path.message} has nothing at the pointer ${JSON.stringify(path.pointer)}`;
    if (path.paragraph !== undefined && typeof value !== 'string') return `the value at ${JSON.stringify(path.pointer)} in message ${path.message} is not a text, so it has no paragraphs`;
  }
  if (path.paragraph === undefined) return undefined;
  const target = targetText(messages, path) ?? '';
  const paragraphs = paragraphSpans(target);
  const where = `message ${path.message}${path.pointer === undefined ? '' : ` at ${JSON.stringify(path.pointer)}`}`;
  const paragraph = paragraphs[path.paragraph];
  if (!paragraph) return `paragraph ${path.paragraph} of ${where}, which has ${paragraphs.length}`;
  if (path.sentence === undefined) return undefined;
  const sentences = sentenceSpans(target.slice(paragraph.start, paragraph.end));
  return path.sentence < sentences.length ? undefined : `sentence ${path.sentence} of paragraph ${path.paragraph} of ${where}, which has ${sentences.length}`;
}

/** The span of a paragraph or sentence path in its target text. */
function spanOf(target: string, path: PiecePath): Span | undefined {
  const paragraph = paragraphSpans(target)[path.paragraph ?? 0];
  if (!paragraph) return undefined;
  if (path.sentence === undefined) return paragraph;
  const s = sentenceSpans(target.slice(paragraph.start, paragraph.end))[path.sentence];
  return s && { start: paragraph.start + s.start, end: paragraph.start + s.end };
}

/**
 * The parts a piece narrows into, one level down: a JSON object's or array's items, else a text's
 * paragraphs, else a paragraph's sentences. A level with a single part is skipped (narrowing to
 * the same text again tells nothing).
 */
export function narrower(messages: readonly WhyMessage[], piece: Piece): Piece[] {
  const parts = levelBelow(messages, piece);
  if (parts.length === 1) return narrower(messages, parts[0]).map((p) => ({ ...p, parent: piece.id, depth: piece.depth + 1 }));
  return parts;
}

function levelBelow(messages: readonly WhyMessage[], piece: Piece): Piece[] {
  const { path } = piece;
  const child = (p: PiecePath, kind: Piece['kind'], text: string): Piece => ({ id: pathId(p), kind, path: p, text, parent: piece.id, depth: piece.depth + 1 });
  if (path.paragraph === undefined) {
    const json = parseJsonText(messages[path.message]?.text ?? '');
    const value = json === undefined ? undefined : valueAt(json, path.pointer ?? '');
    if (value !== undefined && value !== null && typeof value === 'object') {
      const entries: [string, Json][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
      return entries.map(([key, v]) => {
        const p = { message: path.message, pointer: `${path.pointer ?? ''}/${escapeToken(key)}` };
        return child(p, 'json-item', Array.isArray(value) ? (typeof v === 'string' ? v : JSON.stringify(v)) : `${JSON.stringify(key)}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
      });
    }
    if (json !== undefined && typeof value !== 'string') return [];
    const target = targetText(messages, path);
    if (target === undefined) return [];
    const paragraphs = paragraphSpans(target);
    if (paragraphs.length > 1) return paragraphs.map((s, i) => child({ ...withoutText(path), paragraph: i }, 'paragraph', target.slice(s.start, s.end)));
    return sentencesOf(target, { ...withoutText(path), paragraph: 0 }, child);
  }
  if (path.sentence !== undefined) return [];
  const target = targetText(messages, path);
  return target === undefined ? [] : sentencesOf(target, path, child);
}

function sentencesOf(target: string, paragraphPath: PiecePath, child: (p: PiecePath, kind: Piece['kind'], text: string) => Piece): Piece[] {
  const paragraph = paragraphSpans(target)[paragraphPath.paragraph ?? 0];
  if (!paragraph) return [];
  const text = target.slice(paragraph.start, paragraph.end);
  return sentenceSpans(text).map((s, i) => child({ ...paragraphPath, sentence: i }, 'sentence', text.slice(s.start, s.end)));
}

function withoutText(path: PiecePath): PiecePath {
  return path.pointer === undefined ? { message: path.message } : { message: path.message, pointer: path.pointer };
}

/** An edit of a context: pieces removed, and whole messages given another text. */
export interface Edit {
  remove?: readonly PiecePath[];
  /** The text that stands in for a whole message removed (DEFAULT_FILL unless given). */
  fill?: string;
  /** A system rule added in front of the context (fixes). */
  addSystem?: string;
}

/** The context with the edit applied; the messages given are not changed. */
export function applyEdit(messages: readonly WhyMessage[], edit: Edit): WhyMessage[] {
  const out = messages.map((m) => ({ ...m }));
  const byMessage = new Map<number, PiecePath[]>();
  for (const path of edit.remove ?? []) {
    const list = byMessage.get(path.message) ?? [];
    list.push(path);
    byMessage.set(path.message, list);
  }
  for (const [index, paths] of byMessage) {
    const message = out[index];
    if (!message) continue;
    if (paths.some(isWholeMessage)) {
      message.text = edit.fill ?? DEFAULT_FILL;
      continue;
    }
    message.text = editText(message.text, paths);
  }
  if (edit.addSystem !== undefined && edit.addSystem !== '') {
    if (out[0]?.role === 'system') out[0] = { ...out[0], text: `${out[0].text}\n\n${edit.addSystem}` };
    else out.unshift({ role: 'system', text: edit.addSystem });
  }
  return out;
}

function editText(text: string, paths: readonly PiecePath[]): string {
  const inText = paths.filter((p) => p.pointer === undefined);
  const inJson = paths.filter((p) => p.pointer !== undefined);
  let result = inText.length > 0 ? cutSpans(text, inText.flatMap((p) => spanOf(text, p) ?? [])) : text;
  if (inJson.length === 0) return result;
  const json = parseJsonText(result);
  if (json === undefined) return result;
  const style = jsonStyleOf(result, json);
  let root: Json = json;
  const cuts = new Map<string, PiecePath[]>();
  for (const p of inJson.filter((x) => x.paragraph !== undefined)) {
    const list = cuts.get(p.pointer!) ?? [];
    list.push(p);
    cuts.set(p.pointer!, list);
  }
  for (const [pointer, list] of cuts) {
    const value = valueAt(root, pointer);
    if (typeof value === 'string') root = setAt(root, pointer, cutSpans(value, list.flatMap((p) => spanOf(value, p) ?? [])));
  }
  root = removeAt(root, inJson.filter((p) => p.paragraph === undefined).map((p) => p.pointer!));
  result = style(root);
  return result;
}
