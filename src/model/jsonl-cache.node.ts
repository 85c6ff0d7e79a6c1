import { appendFileSync, existsSync, readFileSync, truncateSync } from 'node:fs';
import type { ChatRequest, ModelResponse } from '../engine/model-call.ts';
import { MemoryResponseCache, type CacheEntry, type ResponseCache } from './response-cache.ts';
import { CacheEntryError, validateCacheEntry } from './validate-cache-entry.ts';
import { unusableAnswer } from './unusable-answer.ts';
import { safeJsonText } from '../engine/safe-text.ts';

/** A `--cache` file that is not a response cache; the message names the file and line. */
export class CacheFileError extends Error {
  override name = 'CacheFileError';
}

export interface OpenedCaches {
  cache: ResponseCache;
  /** Lines skipped while reading (a torn last line, entries whose key is not their request's). */
  warnings: string[];
}

/**
 * Open the command's response caches (`--cache A --cache B ...`, JSONL, one `{ key, request,
 * response }` a line): every file is read (the first file's entry wins when two hold one key);
 * new responses are appended to the first, one line each, written as it arrives, so a killed
 * run loses nothing it finished. A file that does not exist yet is created on the first write.
 * A torn last line (a run killed mid-write) is skipped with a warning and cut off before the
 * next write; any other line that is not an entry refuses the file, naming the line.
 */
export function openCaches(files: readonly string[]): OpenedCaches {
  if (files.length === 0) return { cache: new MemoryResponseCache(), warnings: [] };
  const warnings: string[] = [];
  const entries: CacheEntry[] = [];
  let writeState: WriteState = { file: files[0], validLength: 0, needsNewline: false, torn: false };
  files.forEach((file, k) => {
    const read = readCacheFile(file);
    warnings.push(...read.warnings);
    entries.push(...read.entries);
    if (k === 0) writeState = { file, validLength: read.validLength, needsNewline: read.needsNewline, torn: read.torn };
  });
  const memory = new MemoryResponseCache();
  let unusable = 0;
  for (const entry of entries) {
    // An unusable answer (cached before they were refused) is asked again; its good answer, appended later, wins.
    if (unusableAnswer(entry.request, entry.response) !== null) unusable++;
    else if (!memory.has(entry.key)) memory.put(entry.key, entry.request, entry.response);
  }
  if (unusable > 0) warnings.push(`skipped ${unusable} cached answer${unusable === 1 ? '' : 's'} that cannot serve ${unusable === 1 ? 'its' : 'their'} request (no log-probabilities, or no option letter among them): asked again`);
  return { cache: new JsonlResponseCache(memory, writeState), warnings };
}

interface WriteState {
  file: string;
  /** Bytes of the file up to the end of its last whole line. */
  validLength: number;
  /** The last line is whole but has no newline yet. */
  needsNewline: boolean;
  /** A torn last line follows validLength: cut it before appending. */
  torn: boolean;
}

/** The entries of one cache file (empty when it does not exist), with warnings for skipped lines. */
export function readCacheFile(file: string): { entries: CacheEntry[]; warnings: string[]; validLength: number; needsNewline: boolean; torn: boolean } {
  if (!existsSync(file)) return { entries: [], warnings: [], validLength: 0, needsNewline: false, torn: false };
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new CacheFileError(`${file}: cannot read the response cache: ${(error as Error).message}`);
  }
  const text = bytes.toString('utf8');
  const entries: CacheEntry[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  // After the final newline split gives one empty string; a file without one ends in its last line.
  const endsWithNewline = text.endsWith('\n');
  let offset = 0;
  let validLength = 0;
  let forged = 0;
  let torn = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const isLast = i === lines.length - 1;
    const lineBytes = Buffer.byteLength(line, 'utf8');
    if (isLast && line === '') break;
    if (line.trim() === '') {
      offset += lineBytes + 1;
      validLength = offset;
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      // Only the last line can be torn, and only the start of one of our lines: anything else is not a cache.
      if (isLast && !endsWithNewline && line.startsWith('{"key":')) {
        warnings.push(`${file}: skipped 1 torn line at the end (line ${i + 1}, from a run that was stopped while writing)`);
        torn = true;
        break;
      }
      throw new CacheFileError(`${file} line ${i + 1}: not a response cache line (expected one JSON object { key, request, response } per line): ${JSON.stringify(line.slice(0, 60))}`);
    }
    try {
      entries.push(validateCacheEntry(json, 'entry'));
    } catch (error) {
      if (error instanceof CacheEntryError && error.forged) forged++;
      else throw new CacheFileError(`${file} line ${i + 1}: not a response cache entry: ${(error as Error).message}`);
    }
    offset += lineBytes + (isLast ? 0 : 1);
    validLength = offset;
  }
  if (forged > 0) warnings.push(`${file}: skipped ${forged} entr${forged === 1 ? 'y' : 'ies'} whose key does not match the request`);
  return { entries, warnings, validLength, needsNewline: !torn && text.length > 0 && !endsWithNewline, torn };
}

/** The in-memory cache of every file read, appending each new response to the first file. */
class JsonlResponseCache implements ResponseCache {
  constructor(
    private readonly memory: MemoryResponseCache,
    private readonly write: WriteState,
  ) {}

  get(key: string): ModelResponse | undefined {
    return this.memory.get(key);
  }

  has(key: string): boolean {
    return this.memory.has(key);
  }

  put(key: string, request: ChatRequest, response: ModelResponse): void {
    if (this.memory.has(key)) return;
    this.memory.put(key, request, response);
    if (this.write.torn) {
      truncateSync(this.write.file, this.write.validLength);
      this.write.torn = false;
    }
    const line = `${this.write.needsNewline ? '\n' : ''}${safeJsonText(JSON.stringify({ key, request, response }))}\n`;
    this.write.needsNewline = false;
    try {
      appendFileSync(this.write.file, line, 'utf8');
    } catch (error) {
      throw new CacheFileError(`${this.write.file}: cannot write the response cache: ${(error as Error).message}`);
    }
  }

  entries(): Iterable<CacheEntry> {
    return this.memory.entries();
  }

  get size(): number {
    return this.memory.size;
  }
}
