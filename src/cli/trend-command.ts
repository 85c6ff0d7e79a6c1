/**
 * `agentblame trend FILES... | DIR` (docs/trends.md): the trends of one pipeline over saved
 * sessions (or shard results, or reports), by day, week, month, version or tag value: the same
 * numbers as the page's Trends view, from `computeTrends` in the engine.
 *
 * Each file's digest is computed from its case results once and kept in a cache of the command's
 * own, keyed by the SHA-256 of the file's bytes, so a year of daily studies is read again in
 * seconds. Nothing written in a file is taken as a summary: a file is always its results.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BATCH_BOUNDS } from '../engine/setting-choices.ts';
import { computeTrends, joinShardDigests, parseTrendGrouping, TREND_DIGEST_VERSION, type TrendDigest, type TrendGrouping, type Trends } from '../engine/trends.ts';
import { tagKey, tagValue } from '../engine/tags.ts';
import type { BatchBound } from '../engine/types.ts';
import { FormatError } from '../formats/format-error.ts';
import { parseJson } from '../formats/parse-json.ts';
import { sessionImporter } from '../session/opened-input.ts';
import { importSessionText } from '../session/session-file.ts';
import { sessionTrendDigest, validateTrendDigest } from '../session/trend-digest.ts';
import { renderTrendsReport } from '../report/trends-report.ts';
import { printable, safeJsonText } from './printable.ts';
import { UsageError } from './usage-error.ts';
import { eachArgument, oneOf, takePlainFlag, type PlainFlags } from './flag-reader.ts';
import { writeWhole } from './write-whole.ts';
import { settingFromFlag } from './setting-flags.ts';
import { SETTINGS_SCHEMA } from '../engine/settings/schema.ts';

export const TREND_USAGE = `usage: agentblame trend SESSION.json... | DIR [--by week|day|month|version|tag:KEY] [--name PIPELINE] [--tag TAG]
                       [--json | --summary] [--html FILE] [--delta X] [--batch-bound normal|bernstein|anytime]
                       [--digest-cache DIR | --no-digest-cache]`;

export interface TrendOptions {
  inputs: string[];
  grouping: TrendGrouping;
  name?: string;
  tag?: string;
  json: boolean;
  summary: boolean;
  html?: string;
  delta: number;
  bound: BatchBound;
  /** Where digests are kept; null: none kept. */
  cacheDir: string | null;
}

/** The default cache: the project's `node_modules/.cache/agentblame/trend-digests` (as the command's bundle), or AGENTBLAME_CACHE_DIR. */
export function defaultDigestCache(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return env.AGENTBLAME_CACHE_DIR ? join(env.AGENTBLAME_CACHE_DIR, 'trend-digests') : join(cwd, 'node_modules', '.cache', 'agentblame', 'trend-digests');
}

/** The trend command's flags that only set an option. */
const TREND_PLAIN_FLAGS: PlainFlags<TrendOptions> = {
  switches: { '--json': 'json', '--summary': 'summary' },
  texts: { '--name': 'name', '--tag': 'tag', '--html': 'html', '--digest-cache': 'cacheDir' },
};

/** The trend command's flags (argv after `trend`). */
export function parseTrendArgs(argv: readonly string[]): TrendOptions {
  const opts: TrendOptions = { inputs: [], grouping: { by: 'week' }, json: false, summary: false, delta: 0.05, bound: 'normal', cacheDir: defaultDigestCache() };
  eachArgument(argv, (flag, value, arg) => {
    if (takePlainFlag(opts, flag, value, TREND_PLAIN_FLAGS)) return;
    switch (flag) {
      case '--by': {
        const grouping = parseTrendGrouping(value());
        if ('problem' in grouping) throw new UsageError(`--by: ${grouping.problem}`);
        opts.grouping = grouping;
        break;
      }
      case '--delta':
        // The schema's bound, as every command that analyses reads it.
        opts.delta = settingFromFlag('--delta', SETTINGS_SCHEMA.delta, value()) as number;
        break;
      case '--batch-bound':
        opts.bound = oneOf(flag, value(), BATCH_BOUNDS);
        break;
      case '--no-digest-cache':
        opts.cacheDir = null;
        break;
      default:
        if (arg.startsWith('--')) throw new UsageError(`trend: unknown flag ${arg}`);
        opts.inputs.push(arg);
    }
  });
  if (opts.inputs.length === 0) throw new UsageError('trend: give session files (or reports, or shard results) or a folder of them');
  if (opts.json && opts.summary) throw new UsageError('--json and --summary are two outputs: give one');
  return opts;
}

/** A problem with the input (exit 2), naming the file. */
export class TrendInputError extends Error {}

/** Every file under a folder (sorted, hidden entries and node_modules skipped) that may be a session or report. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (/\.(json|html?)$/i.test(entry.name)) out.push(path);
  }
  return out;
}

interface CacheEntry {
  key: string;
  /** null: the file is not a session (a folder's other files). */
  digest: TrendDigest | null;
}

function readCache(dir: string, key: string): CacheEntry | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, `${key}.json`), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const raw = parseJson(text);
    if (typeof raw !== 'object' || raw === null || !('key' in raw) || raw.key !== key || !('digest' in raw) || !('v' in raw) || raw.v !== TREND_DIGEST_VERSION) return undefined;
    return { key, digest: raw.digest === null ? null : validateTrendDigest(raw.digest, 'digest') };
  } catch {
    // A damaged or edited cache file is recomputed from the session, never trusted.
    return undefined;
  }
}

/** The digest key a stat record names, when the file still has the recorded size and modification time. */
function readStatRecord(path: string, size: number, mtimeMs: number): string | undefined {
  try {
    const raw = parseJson(readFileSync(path, 'utf8'));
    if (typeof raw !== 'object' || raw === null || !('size' in raw) || !('mtimeMs' in raw) || !('key' in raw)) return undefined;
    return raw.size === size && raw.mtimeMs === mtimeMs && typeof raw.key === 'string' && /^[0-9a-f]{64}$/.test(raw.key) ? raw.key : undefined;
  } catch {
    return undefined;
  }
}

function writeStatRecord(dir: string, name: string, record: { size: number; mtimeMs: number; key: string }): void {
  try {
    mkdirSync(dir, { recursive: true });
    writeWhole(join(dir, name), JSON.stringify(record), 'digest cache', (m) => new Error(m));
  } catch {
    // Only costs reading the file again next time.
  }
}

function writeCache(dir: string, entry: CacheEntry): void {
  try {
    mkdirSync(dir, { recursive: true });
    writeWhole(join(dir, `${entry.key}.json`), JSON.stringify({ v: TREND_DIGEST_VERSION, ...entry }), 'digest cache', (m) => new Error(m));
  } catch {
    // A cache that cannot be written only costs time next run.
  }
}

export interface ReadDigests {
  digests: TrendDigest[];
  /** Files in folders that are not sessions, skipped. */
  skipped: string[];
  /** Digests read from the cache / computed from their sessions. */
  cached: number;
  computed: number;
}

/** The digests of the input files: from the cache when the file's bytes are the ones digested, else computed and kept. */
export function readDigests(inputs: readonly string[], cacheDir: string | null): ReadDigests {
  const files: { path: string; explicit: boolean }[] = [];
  for (const input of inputs) {
    let isDir: boolean;
    try {
      isDir = statSync(input).isDirectory();
    } catch {
      throw new TrendInputError(`cannot read "${input}": no such file or folder`);
    }
    if (isDir) files.push(...walk(input).map((path) => ({ path, explicit: false })));
    else files.push({ path: input, explicit: true });
  }
  const out: ReadDigests = { digests: [], skipped: [], cached: 0, computed: 0 };
  for (const { path, explicit } of files) {
    // A file whose size and modification time are those it had when digested is that file (as make
    // and git take it): its digest is read without reading it. Any other is read and hashed.
    const stat = statSync(path);
    const statName = `stat-${createHash('sha256').update(resolve(path)).digest('hex')}.json`;
    const known = cacheDir === null ? undefined : readStatRecord(join(cacheDir, statName), stat.size, stat.mtimeMs);
    let entry = known === undefined || cacheDir === null ? undefined : readCache(cacheDir, known);
    let bytes: Buffer | undefined;
    let key = known;
    if (!entry) {
      bytes = readFileSync(path);
      key = createHash('sha256').update(bytes).digest('hex');
      entry = cacheDir === null ? undefined : readCache(cacheDir, key);
      if (cacheDir !== null) writeStatRecord(cacheDir, statName, { size: stat.size, mtimeMs: stat.mtimeMs, key });
    }
    key ??= '';
    if (entry) out.cached++;
    else {
      const text = (bytes ?? readFileSync(path)).toString('utf8');
      let digest: TrendDigest | null = null;
      if (sessionImporter.sniff(text)) {
        try {
          digest = sessionTrendDigest(importSessionText(text));
        } catch (e) {
          if (e instanceof FormatError) throw new TrendInputError(`"${path}": ${e.message}`);
          throw e;
        }
      }
      entry = { key, digest };
      out.computed++;
      if (cacheDir !== null) writeCache(cacheDir, entry);
    }
    if (entry.digest === null) {
      if (explicit) throw new TrendInputError(`"${path}" is not a session file: trend reads session files, exported reports and shard results (what --save or the workbench writes)`);
      out.skipped.push(path);
    } else out.digests.push(entry.digest);
  }
  return out;
}

/** The studies of one pipeline (by --name, else the only one), with --tag when given. */
export function chooseStudies(digests: readonly TrendDigest[], name: string | undefined, tag: string | undefined): { pipeline: string; digests: TrendDigest[] } {
  let kept = digests;
  if (tag !== undefined) {
    const key = tagKey(tag);
    kept = kept.filter((d) => (tag === key ? tagValue(d.tags, key) !== undefined : d.tags.includes(tag)));
  }
  const names = [...new Set(kept.map((d) => d.name))].sort();
  if (name !== undefined) {
    const chosen = kept.filter((d) => d.name === name);
    if (chosen.length === 0) throw new TrendInputError(`--name ${JSON.stringify(name)}: no study of that pipeline${tag !== undefined ? ` tagged ${JSON.stringify(tag)}` : ''} (pipelines: ${names.map((n) => JSON.stringify(n)).join(', ') || 'none'})`);
    return { pipeline: name, digests: chosen };
  }
  if (names.length > 1) throw new TrendInputError(`the files hold studies of ${names.length} pipelines (${names.map((n) => JSON.stringify(n)).join(', ')}): choose one with --name`);
  if (names.length === 0) throw new TrendInputError(tag !== undefined ? `no study is tagged ${JSON.stringify(tag)}` : 'no session file among the inputs');
  return { pipeline: names[0], digests: [...kept] };
}

const pct = (x: number) => `${Math.round(x * 100)} %`;
const pair = (ci: readonly [number, number]) => `[${Math.round(ci[0] * 100)}, ${Math.round(ci[1] * 100)}]`;
const pts = (x: number) => `${x >= 0 ? '+' : '-'}${Math.abs(Math.round(x * 100))} pts`;
const plain = (key: string) => key.replace(/^[vt]:/, '');

/** A step's cell in a period: share [interval], a ▲/▼ when the change from the period before is marked. */
function cell(t: Trends, stepIndex: number, k: number): string {
  const s = t.steps[stepIndex];
  const p = s.points[k];
  if (!p) return '—';
  const change = s.changes.find((c) => c.to === t.periods[k].key);
  return `${pct(p.share)} ${pair(p.ci)}${change?.marked ? (change.shareChange > 0 ? ' ▲' : ' ▼') : ''} alone ${pct(p.fixAloneRate)}`;
}

function studiesLine(pipeline: string, t: Trends): string {
  const studies = t.periods.reduce((n, p) => n + p.studies.length, 0);
  return `${pipeline}: ${studies} ${studies === 1 ? 'study' : 'studies'} in ${t.periods.length} period${t.periods.length === 1 ? '' : 's'} (by ${t.grouping}), ${Number(((1 - t.delta) * 100).toFixed(2))} % intervals (${t.bound} bound)`;
}

/** The terminal table. */
export function formatTrends(pipeline: string, t: Trends): string {
  const header = ['period', 'studies', 'failures', ...t.steps.map((s) => s.step)];
  const rows = t.periods.map((p, k) => [p.label, String(p.studies.length), String(p.analyzed), ...t.steps.map((_, i) => cell(t, i, k))]);
  const table = [header, ...rows].map((r) => r.map(printable));
  const widths = header.map((_, c) => Math.max(...table.map((r) => r[c].length)));
  const lines = [printable(studiesLine(pipeline, t)), ...(t.headline ? [printable(t.headline)] : []), '', ...table.map((r) => r.map((x, c) => x.padEnd(widths[c])).join('  ').trimEnd())];
  const drifts = t.steps.filter((s) => s.drift);
  if (drifts.length > 0) {
    lines.push('', 'from first to last period (▲▼: the interval of the change excludes 0):');
    for (const s of drifts) lines.push(printable(`  ${s.step}: ${pts(s.drift!.shareChange)} ${pair(s.drift!.ci)} from ${plain(s.drift!.from)} to ${plain(s.drift!.to)}${s.drift!.marked ? (s.drift!.shareChange > 0 ? ' ▲' : ' ▼') : ' (within noise)'}`));
  }
  return lines.join('\n');
}

/** Markdown: escapes the characters a table cell or emphasis would misread. */
function md(text: string): string {
  return printable(text).replace(/[\\|*_`<>[\]]/g, (ch) => `\\${ch}`);
}

/** `--summary`: a markdown block for a pull request or a wiki page. */
export function summaryMarkdown(pipeline: string, t: Trends): string {
  const lines = [`### Trends of ${md(pipeline)}`, '', md(studiesLine(pipeline, t)), ''];
  if (t.headline) lines.push(`**${md(t.headline)}**`, '');
  lines.push(`| period | studies | failures | ${t.steps.map((s) => md(s.step)).join(' | ')} |`, `| --- | ---: | ---: | ${t.steps.map(() => '---:').join(' | ')} |`);
  t.periods.forEach((p, k) => lines.push(`| ${md(p.label)} | ${p.studies.length} | ${p.analyzed} | ${t.steps.map((_, i) => md(cell(t, i, k))).join(' | ')} |`));
  const marked = t.steps.filter((s) => s.drift?.marked);
  lines.push('', marked.length > 0 ? `Changed from first to last period: ${marked.map((s) => `${md(s.step)} ${pts(s.drift!.shareChange)} ${pair(s.drift!.ci)}`).join('; ')}.` : 'No step changed clearly from the first period to the last.');
  return lines.join('\n');
}

/** Runs `trend` (argv after the word `trend`); returns the exit status. */
export function trendMain(argv: readonly string[], out: (text: string) => void = (t) => process.stdout.write(t), err: (text: string) => void = (t) => process.stderr.write(t)): number {
  let opts: TrendOptions;
  try {
    opts = parseTrendArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`blame: ${printable(e.message)}\n${TREND_USAGE}\n`);
      return 2;
    }
    throw e;
  }
  try {
    const read = readDigests(opts.inputs, opts.cacheDir);
    const { pipeline, digests } = chooseStudies(joinShardDigests(read.digests), opts.name, opts.tag);
    const trends = computeTrends(digests, { grouping: opts.grouping, delta: opts.delta, bound: opts.bound });
    if (read.skipped.length > 0) err(`blame: note: ${read.skipped.length} file${read.skipped.length === 1 ? '' : 's'} in the folders ${read.skipped.length === 1 ? 'is' : 'are'} not a session, skipped (${printable(read.skipped.slice(0, 3).join(', '))}${read.skipped.length > 3 ? ', ...' : ''})\n`);
    if (opts.html !== undefined) writeWhole(opts.html, renderTrendsReport({ pipeline, trends }), 'trends report', (m) => new TrendInputError(m));
    if (opts.json) out(`${safeJsonText(JSON.stringify({ pipeline, trends }, null, 2))}\n`);
    else if (opts.summary) out(`${summaryMarkdown(pipeline, trends)}\n`);
    else out(`${formatTrends(pipeline, trends)}\n`);
    return 0;
  } catch (e) {
    if (e instanceof TrendInputError) {
      err(`blame: ${printable(e.message)}\n`);
      return 2;
    }
    throw e;
  }
}
