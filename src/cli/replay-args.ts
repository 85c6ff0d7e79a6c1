/**
 * The replay flags of the command (docs/replay.md, "Command"), taken out of the command line before
 * the ordinary parser sees the rest: `--replay [--run ID]... [--players steps|turns|agents]
 * [--fix TURN=KIND[:ARG]]... [--expect TEXT|/REGEX/ | --judge RUBRIC | --metric FILE.js]
 * [--tools FILE.js] [--contrast N] [--emit-definition FILE.js] [--score PREDICTIONS.json]`.
 */
import { PLAYERS_KINDS, type PlayersKind } from '../replay/index.ts';
import { UsageError } from './usage-error.ts';
import type { ReplayCliOptions } from './replay-options.ts';
import { flagsOf } from './flags.ts';

export type { ReplayCliOptions };

/** The replay's own flags that take a value (from the flag table); the rest of the line is blame's. */
const VALUED: ReadonlySet<string> = new Set([...flagsOf('replay').values()].filter((f) => f.group === 'replay' && (f.kind === 'value' || f.kind === 'list')).map((f) => f.name));

/**
 * The replay options and the rest of the command line (for blame's parser), or null when `--replay`
 * is not given. The line was checked against the flag table (command-line.ts). Throws UsageError.
 */
export function takeReplayArgs(argv: readonly string[]): { options: ReplayCliOptions; rest: string[] } | null {
  if (!argv.includes('--replay')) return null;
  const options: ReplayCliOptions = { runs: [], players: 'steps', fixes: [] };
  const rest: string[] = [];
  const once = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--replay') continue;
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (flag === '--score') {
      // The predictions file is optional: the next argument is it unless it is another option or an input.
      if (eq > 0) options.score = arg.slice(eq + 1);
      else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('-') && /predictions/i.test(argv[i + 1])) options.score = argv[++i];
      else options.score = true;
      continue;
    }
    if (!VALUED.has(flag)) {
      rest.push(arg);
      continue;
    }
    let value: string | undefined;
    if (arg.startsWith('--') && eq > 0) value = arg.slice(eq + 1);
    else value = argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag !== '--run' && flag !== '--fix') {
      if (once.has(flag)) throw new UsageError(`${flag} is given twice`);
      once.add(flag);
    }
    switch (flag) {
      case '--run':
        options.runs.push(value);
        break;
      case '--players':
        if (!(PLAYERS_KINDS as readonly string[]).includes(value)) throw new UsageError(`--players: expected one of ${PLAYERS_KINDS.join(', ')}, got "${value}"`);
        options.players = value as PlayersKind;
        break;
      case '--fix':
        options.fixes.push(value);
        break;
      case '--expect':
        if (value === '') throw new UsageError('--expect needs the text the final answer should contain (or /REGEX/)');
        options.expect = value;
        break;
      case '--judge':
        if (value.trim() === '') throw new UsageError('--judge needs a rubric');
        options.judge = value;
        break;
      case '--metric':
        options.metric = value;
        break;
      case '--tools':
        options.tools = value;
        break;
      case '--contrast': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new UsageError(`--contrast: expected a whole number of replays from 1 to 10000, got "${value}"`);
        options.contrast = n;
        break;
      }
      case '--emit-definition':
        options.emitDefinition = value;
        break;
    }
  }
  const outcomes = ['--expect', '--judge', '--metric'].filter((f) => once.has(f));
  if (outcomes.length > 1) throw new UsageError(`${outcomes.join(' and ')}: give one way to decide success`);
  return { options, rest };
}
