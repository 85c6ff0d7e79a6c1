/**
 * Everything the command says about its flags, derived from the flag table (flags.ts): `--help`,
 * `agentblame help TOPIC` and `agentblame COMMAND --help`, the usage lines printed after a usage
 * error, and the generated parts of docs/cli.md and docs/shards.md (`npm run docs:cli` writes them;
 * flags.test.ts fails when they differ from the table).
 */
import { COMMAND_NAMES, COMMANDS, FLAG_GROUPS, FLAGS, type CommandName, type FlagGroup, type FlagSpec } from './flags.ts';
import { RERUN_FLAGS } from './session-input.ts';

export const HELP_TOPICS = [...COMMAND_NAMES, 'shards'] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];

const WIDTH = 100;
const PROGRAM = 'agentblame';

/** `--name VALUE` (`--name` for a switch). */
export function flagSyntax(f: FlagSpec): string {
  return f.value === undefined ? f.name : f.kind === 'optional-value' ? `${f.name} ${f.value}` : `${f.name} ${f.value}${f.kind === 'list' ? '...' : ''}`;
}

function wrap(text: string, indent: number, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

function flagLines(f: FlagSpec): string[] {
  const head = `  ${flagSyntax(f)}`;
  const text = `${f.help}${f.default === '' ? '' : ` [default: ${f.default}]`}`;
  const body = wrap(text, 8).map((l) => `        ${l}`);
  return [head, ...body];
}

function groupedFlags(flags: readonly FlagSpec[], showCommands: boolean): string[] {
  const out: string[] = [];
  for (const group of Object.keys(FLAG_GROUPS) as FlagGroup[]) {
    const inGroup = flags.filter((f) => f.group === group);
    if (inGroup.length === 0) continue;
    out.push('', `${FLAG_GROUPS[group]}:`);
    for (const f of inGroup) {
      const lines = flagLines(f);
      if (showCommands && f.commands.length < COMMAND_NAMES.length) lines[0] += `   (${f.commands.join(', ')})`;
      out.push(...lines);
    }
  }
  return out;
}

/** The usage lines of one command (printed after a usage error). */
export function usageOf(command: CommandName): string {
  const spec = COMMANDS[command];
  const legacy = spec.legacyFlag ? `\n   or: npm run --silent blame -- ... ${spec.legacyFlag}${command === 'why' ? ' CALL' : command === 'check' ? ' CHECK.json' : ''} ... (the same flags)` : '';
  return `usage: ${PROGRAM} ${spec.usage}${legacy}\n       (${PROGRAM} help ${command}: every flag it takes, with its default)`;
}

function overview(version: string): string {
  const lines = [
    `${PROGRAM} ${version}: which step of an LLM or agent pipeline caused the failure, by intervention (Shapley values over fixes).`,
    `From a clone: npm run --silent blame -- ARGS (the same arguments).`,
    '',
    'Commands:',
  ];
  for (const c of COMMAND_NAMES) {
    lines.push(`  ${PROGRAM} ${COMMANDS[c].usage}`);
    lines.push(...wrap(COMMANDS[c].summary, 8).map((l) => `        ${l}`));
  }
  lines.push(`  ${PROGRAM} help TOPIC`, `        one command's flags, or a topic (${HELP_TOPICS.join(', ')})`);
  lines.push(...groupedFlags(FLAGS, true));
  lines.push('', 'Exit status: 0 done; 1 some case could not be analysed, or a check failed; 2 bad input.');
  return lines.join('\n');
}

function commandHelp(command: CommandName): string {
  const spec = COMMANDS[command];
  const flags = FLAGS.filter((f) => f.commands.includes(command));
  return [`usage: ${PROGRAM} ${spec.usage}`, '', ...wrap(spec.summary, 0), `Documented in ${spec.doc}.`, ...groupedFlags(flags, false)].join('\n');
}

function shardsHelp(): string {
  const names = new Set(['--shard', '--save', '--allow-partial', '--keep-responses', '--cache', '--batch-bound']);
  const flags = FLAGS.filter((f) => names.has(f.name) && f.commands.includes('blame'));
  return [
    `usage: ${PROGRAM} FILE --shard I/K --save shard-I.agentblame-session.json [flags]   (each shard, anywhere)`,
    `       ${PROGRAM} merge shard-*.agentblame-session.json --save study.agentblame-session.json [--html report.html]`,
    '',
    ...wrap('Spread one study over a CI matrix, a Kubernetes Indexed Job or xargs -P: each shard analyses the cases at 0-based positions j with j mod K = I - 1 and saves a session file; merging the shards gives exactly the unsharded result (other studies, duplicate and missing shards are refused naming the file). A session file given alone is printed without re-running; a setting flag re-runs its study. Recipes: docs/shards.md.', 0),
    ...groupedFlags(flags, false),
  ].join('\n');
}

/** The text of `--help` (no topic) or `help TOPIC`. */
export function helpText(topic: HelpTopic | undefined, version: string): string {
  if (topic === undefined) return overview(version);
  if (topic === 'shards') return shardsHelp();
  return commandHelp(topic);
}

// ---- docs/cli.md and docs/shards.md ----

/** The generated part of docs/cli.md runs from this heading to the next `## ` heading. */
export const GENERATED_HEADING = '## Commands and flags';
const GENERATED_NOTE = '*Generated from the flag table, `src/cli/flags.ts`, by `npm run docs:cli`: edit the table there, then run it (`src/cli/flags.test.ts` fails while this differs).*';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The command and flag tables of docs/cli.md (the part between the markers). */
export function cliDocTables(): string {
  const out = ['| command | what it does | docs |', '| --- | --- | --- |'];
  for (const c of COMMAND_NAMES) out.push(`| \`${PROGRAM} ${cell(COMMANDS[c].usage)}\` | ${cell(COMMANDS[c].summary)} | [${COMMANDS[c].doc}](${COMMANDS[c].doc.replace(/^docs\//, '')}) |`);
  for (const group of Object.keys(FLAG_GROUPS) as FlagGroup[]) {
    const inGroup = FLAGS.filter((f) => f.group === group);
    if (inGroup.length === 0) continue;
    out.push('', `### ${FLAG_GROUPS[group]}`, '', '| flag | meaning | default | commands |', '| --- | --- | --- | --- |');
    for (const f of inGroup) out.push(`| \`${cell(flagSyntax(f))}\` | ${cell(f.help)} | ${cell(f.default)} | ${f.commands.length === COMMAND_NAMES.length ? 'all' : f.commands.join(', ')} |`);
  }
  out.push('', `Given a session file (or report), these flags re-run its study (docs/shards.md); any other prints or merges what is stored: ${RERUN_FLAGS.map((f) => `\`${f}\``).join(', ')}.`);
  return out.join('\n');
}

/** `text` with its generated part (GENERATED_HEADING to the next heading) replaced; null when it has none. */
export function withGenerated(text: string, generated: string): string | null {
  const start = text.indexOf(`\n${GENERATED_HEADING}\n`);
  if (start < 0) return null;
  const next = text.indexOf('\n## ', start + GENERATED_HEADING.length + 2);
  const tail = next < 0 ? '\n' : text.slice(next);
  return `${text.slice(0, start)}\n${GENERATED_HEADING}\n\n${GENERATED_NOTE}\n\n${generated}\n${tail}`;
}
