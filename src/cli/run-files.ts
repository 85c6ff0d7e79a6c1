/**
 * The files `--inspect` and `--score` read: files named on the command line as given (a bad one is
 * the command's error), folders walked in name order (numbers in numeric order), where a file that
 * is not a recorded run (Langfuse's `X.chatml.json` beside `X.trace.json`, a `package.json`), a
 * dangling symlink or a symlink loop is skipped with a note saying why, never a crash.
 */
import { readdirSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseInputFile } from '../formats/detect.ts';
import { FormatError } from '../formats/format-error.ts';
import type { RecordedRunFile } from '../runs/index.ts';

/** A file of a folder that was not read, and why. */
export interface SkippedFile {
  file: string;
  reason: string;
}

/** A bad named file or folder: the command's own error (exit 2). */
export class RunFileError extends Error {}

interface Candidate {
  path: string;
  /** Named on the command line (its problems are errors), or found in a folder (skipped). */
  named: boolean;
}

function statOrWhy(path: string): Stats | string {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return 'a symlink loop';
    if (code === 'ENOENT') return 'a symlink to nothing (dangling)';
    return `cannot be read (${code ?? 'unknown error'})`;
  }
}

function walk(folder: string, out: Candidate[], skipped: SkippedFile[], seen: Set<string>): void {
  // A folder reached again through a symlink is a loop: read each real folder once.
  const real = realpathSync(folder);
  if (seen.has(real)) {
    skipped.push({ file: folder, reason: 'a symlink loop (this folder was already read)' });
    return;
  }
  seen.add(real);
  const names = readdirSync(folder).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  for (const name of names) {
    const full = join(folder, name);
    const stat = statOrWhy(full);
    if (typeof stat === 'string') skipped.push({ file: full, reason: stat });
    else if (stat.isDirectory()) walk(full, out, skipped, seen);
    else if (/\.(json|jsonl)$/i.test(name)) out.push({ path: full, named: false });
  }
}

/** Every recorded-run file under the paths, and the folder files skipped with why. */
export function readRunFiles(paths: readonly string[]): { files: RecordedRunFile[]; skipped: SkippedFile[] } {
  const candidates: Candidate[] = [];
  const skipped: SkippedFile[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    const stat = statOrWhy(path);
    if (typeof stat === 'string') throw new RunFileError(`cannot read "${path}": no such file or folder`);
    if (stat.isDirectory()) walk(path, candidates, skipped, seen);
    else candidates.push({ path, named: true });
  }
  if (candidates.length === 0) throw new RunFileError(`no .json or .jsonl files in ${paths.join(', ')}${skipped.length ? ` (skipped: ${skipped.map((s) => `${s.file}: ${s.reason}`).join('; ')})` : ''}`);
  const files: RecordedRunFile[] = [];
  for (const { path, named } of candidates) {
    const problem = readOne(path, files);
    if (problem === null) continue;
    if (named) throw new RunFileError(problem.otherKind ? `"${path}" ${problem.reason}` : `${path}: ${problem.reason}`);
    skipped.push({ file: path, reason: problem.reason });
  }
  skipped.sort((a, b) => a.file.localeCompare(b.file, 'en', { numeric: true }));
  if (files.length === 0) throw new RunFileError(`no recorded runs in ${paths.join(', ')}: ${skipped.slice(0, 3).map((s) => `${s.file}: ${s.reason}`).join('; ')}${skipped.length > 3 ? '; ...' : ''}`);
  return { files, skipped };
}

/** Reads one file into `files`; returns why it is not a recorded run (another kind of input, or an error), or null. */
function readOne(path: string, files: RecordedRunFile[]): { reason: string; otherKind?: true } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})` };
  }
  // The file's folder and name: Who&When runs are named `hand/12` from it.
  const name = `${basename(dirname(path))}/${basename(path)}`;
  try {
    const input = parseInputFile(text, name);
    if (input.kind !== 'runs') return { reason: `is not a recorded run (it is a ${input.kind} file)`, otherKind: true };
    files.push(input.runs);
    return null;
  } catch (error) {
    if (error instanceof FormatError) return { reason: error.message };
    throw error;
  }
}

/** The skipped files as lines after the output, escaped for a terminal; '' when none. */
export function skippedText(skipped: readonly SkippedFile[], escape: (text: string) => string): string {
  if (skipped.length === 0) return '';
  return [`skipped ${skipped.length} file${skipped.length === 1 ? '' : 's'} in the folders (not recorded runs):`, ...skipped.map((s) => `  ${escape(s.file)}: ${escape(s.reason.replace(/\s*\n\s*/g, ' '))}`)].join('\n');
}
