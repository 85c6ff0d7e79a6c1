/**
 * Reads the command line once, against the flag table (flags.ts): which command runs, and its
 * arguments as `--flag value` pairs its parser takes. A flag the command does not take, a missing
 * value or an unknown option is a UsageError here, before any parser or file is touched.
 *
 * `agentblame COMMAND ...` names the command; without one, the flags that selected a mode before
 * there were commands still do (`FILE --replay`, `FILE --why CALL`, `--check FILE`, `FILE --inspect`,
 * `FILE --score PRED.json`), so every earlier command line keeps working.
 */
import { COMMAND_NAMES, COMMANDS, commandsTaking, flagsOf, type CommandName } from './flags.ts';
import { HELP_TOPICS, type HelpTopic } from './help.ts';
import { UsageError } from './usage-error.ts';

export type CommandLine =
  | { kind: 'help'; topic?: HelpTopic }
  | { kind: 'version' }
  /** `argv`: positionals first, then each flag as given (a value as the next argument, `--score=V` for optional values). */
  | { kind: 'run'; command: CommandName; argv: string[] };

const isCommand = (word: string | undefined): word is CommandName => (COMMAND_NAMES as readonly string[]).includes(word ?? '');

function flagName(arg: string): string {
  return arg.startsWith('--') && arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
}

/** The command a line without a command word asks for, read off the flags that selected modes. */
function legacyCommand(argv: readonly string[]): CommandName {
  const names = new Set(argv.map(flagName));
  const replay = names.has('--replay');
  const others = ['--inspect', '--why', '--check'].filter((f) => names.has(f));
  if (replay && others.length > 0) throw new UsageError(`--replay and ${others[0]} are separate commands: give one of them`);
  if (replay) return 'replay';
  if (names.has('--why') && names.has('--check')) throw new UsageError('--check reruns a check file: leave out --why (or --check)');
  if (names.has('--why')) return 'why';
  if (names.has('--check')) return 'check';
  if (names.has('--inspect') || names.has('--score')) return 'inspect';
  return 'blame';
}

/** How a command is named in messages: its legacy flag where it has one (as earlier messages did). */
function commandLabel(command: CommandName): string {
  const legacy = COMMANDS[command].legacyFlag;
  return legacy ? `${legacy} (agentblame ${command})` : `agentblame ${command}`;
}

function notTaken(arg: string, command: CommandName): UsageError {
  const name = flagName(arg);
  const takers = commandsTaking(name);
  if (takers.length === 0) return new UsageError(`unknown option ${arg}`);
  const selects = COMMAND_NAMES.find((c) => COMMANDS[c].legacyFlag === name);
  if (selects) return new UsageError(`${name} selects the ${selects} command: give it without "${command}" (or write agentblame ${selects} ...)`);
  if (takers.length === 1 && takers[0] === 'replay') return new UsageError(`${name} needs --replay (blame recorded runs by replaying them: docs/replay.md)`);
  return new UsageError(`${name} does not apply to ${commandLabel(command)}: it is a flag of ${takers.join(', ')} (agentblame help ${command} lists the flags it takes)`);
}

/** Reads argv (after `agentblame` or `npm run blame --`). Throws UsageError. */
export function readCommandLine(argv: readonly string[]): CommandLine {
  if (argv[0] === 'help') {
    const topic = argv[1];
    if (topic === undefined) return { kind: 'help' };
    if (!(HELP_TOPICS as readonly string[]).includes(topic)) throw new UsageError(`help: no topic "${topic}" (topics: ${HELP_TOPICS.join(', ')})`);
    return { kind: 'help', topic: topic as HelpTopic };
  }
  const named = isCommand(argv[0]);
  const rest = named ? argv.slice(1) : argv;
  if (rest.includes('--version')) return { kind: 'version' };
  if (rest.includes('--help') || rest.includes('-h')) return named ? { kind: 'help', topic: argv[0] as CommandName } : { kind: 'help' };
  const command = named ? (argv[0] as CommandName) : legacyCommand(rest);
  const table = flagsOf(command);
  const positionals: string[] = [];
  const flags: string[] = [];
  const given = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const name = flagName(arg);
    const inline = name === arg ? undefined : arg.slice(name.length + 1);
    const spec = table.get(name);
    if (!spec) throw notTaken(arg, command);
    given.add(name);
    if (spec.kind === 'switch') {
      if (inline !== undefined) throw new UsageError(`${name} takes no value, got "${arg}"`);
      flags.push(name);
    } else if (spec.kind === 'optional-value') {
      const next = rest[i + 1];
      if (inline !== undefined) flags.push(`${name}=${inline}`);
      else if (next !== undefined && spec.takesNext?.(next)) flags.push(`${name}=${rest[++i]}`);
      else flags.push(name);
    } else {
      const value = inline ?? rest[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      flags.push(name, value);
    }
  }
  return { kind: 'run', command, argv: argumentsOf(command, positionals, flags, given) };
}

/** The parser's arguments: each command's positionals put where its parser reads them. */
function argumentsOf(command: CommandName, positionals: string[], flags: string[], given: ReadonlySet<string>): string[] {
  switch (command) {
    case 'blame':
      return [...positionals, ...flags];
    case 'repairs':
      return [...positionals, ...flags, ...(given.has('--repairs') ? [] : ['--repairs'])];
    case 'compare': {
      if (given.has('--compare')) return [...positionals, ...flags];
      if (positionals.length !== 2) throw new UsageError(`compare: expected FILE and the EARLIER session file to compare with, got ${positionals.length} file${positionals.length === 1 ? '' : 's'}`);
      return [positionals[0], ...flags, '--compare', positionals[1]];
    }
    case 'merge':
      if (positionals.length < 2) throw new UsageError(`merge: expected two or more session files (the shards of one study), got ${positionals.length}`);
      return [...positionals, ...flags];
    case 'replay':
      return [...positionals, ...flags, ...(given.has('--replay') ? [] : ['--replay'])];
    case 'why':
      return [...positionals, ...flags, ...(given.has('--why') ? [] : ['--why', 'last'])];
    case 'check': {
      if (given.has('--check')) return [...positionals, ...flags];
      if (positionals.length !== 1) throw new UsageError(`check: expected one check file, got ${positionals.length}`);
      return [...flags, '--check', positionals[0]];
    }
    case 'inspect':
      return [...positionals, ...flags, ...(given.has('--inspect') ? [] : ['--inspect'])];
    case 'trend':
      return [...positionals, ...flags];
  }
}
