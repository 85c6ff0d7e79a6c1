import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingEntries } from '../engine/settings/schema.ts';
import { parseArgs } from './args.ts';
import { readCommandLine } from './command-line.ts';
import { COMMAND_NAMES, COMMANDS, FLAGS, flagsOf, type CommandName } from './flags.ts';
import { cliDocTables, flagSyntax, helpText, HELP_TOPICS, withGenerated } from './help.ts';
import { parseInspectArgs } from './inspect.ts';
import { takeReplayArgs } from './replay-args.ts';
import { blameSync } from './testing/run-blame.ts';
import { UsageError } from './usage-error.ts';
import { parseWhyArgs } from './why-command.ts';
import { parseTrendArgs } from './trend-command.ts';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

function run(argv: string[]) {
  const line = readCommandLine(argv);
  if (line.kind !== 'run') throw new Error(`expected a command to run, got ${line.kind}`);
  return line;
}

describe('the flag table', () => {
  it('has each flag once per command', () => {
    for (const command of COMMAND_NAMES) {
      const names = FLAGS.filter((f) => f.commands.includes(command)).map((f) => f.name);
      expect(names.length, command).toBe(new Set(names).size);
    }
  });

  it("reads every setting flag off the settings schema: kind, default and values", () => {
    for (const [key, setting] of settingEntries()) {
      if (setting.kind === 'structured' || setting.flag === null) continue;
      const spec = FLAGS.find((f) => f.setting === key);
      expect(spec?.name, key).toBe(setting.flag);
      expect(spec!.kind).toBe(setting.kind === 'boolean' ? 'switch' : 'value');
      // A long list is named by a placeholder and listed in the help line.
      if (setting.kind === 'choice') expect(spec!.value === setting.values.join('|') || spec!.help.includes(setting.values.join(', ')), key).toBe(true);
      if (setting.kind === 'number' && key !== 'tieTolerance') expect(spec!.default).toBe(setting.default === Infinity ? 'none' : String(setting.default));
    }
  });

  // Every flag a parser reads is in the table for its commands: the table is the only way in, so a
  // flag missing from it could never be given (and one in it that no parser reads would be dropped).
  const parsers: { files: string[]; commands: CommandName[] }[] = [
    { files: ['src/cli/args.ts', 'src/cli/repair-args.ts'], commands: ['blame', 'repairs', 'compare', 'merge', 'replay'] },
    { files: ['src/cli/replay-args.ts'], commands: ['replay'] },
    { files: ['src/cli/why-command.ts'], commands: ['why', 'check'] },
    { files: ['src/cli/inspect.ts'], commands: ['inspect'] },
    { files: ['src/cli/trend-command.ts'], commands: ['trend'] },
  ];
  for (const { files, commands } of parsers) {
    it(`has every flag ${files.join(' and ')} read${files.length === 1 ? 's' : ''}, for one of ${commands.join(', ')}`, () => {
      const source = files.map(read).join('\n');
      const flags = new Set([...source.matchAll(/case '(--[a-z-]+)'|arg === '(--[a-z-]+)'/g)].map((m) => m[1] ?? m[2]));
      expect(flags.size).toBeGreaterThan(0);
      for (const flag of flags) expect(commands.some((c) => flagsOf(c).has(flag)), flag).toBe(true);
    });
  }

  it("hands every flag of each command to a parser that knows it (no 'unknown option' past the table)", () => {
    // An optional value is written inline (`--flag=V`): a separate argument would be a positional unless the flag's takesNext accepts it.
    const sample = (name: string, value: string | undefined, kind: string): string[] => (value === undefined ? [name] : kind === 'optional-value' ? [`${name}=1`] : [name, name === '--model' ? 'm' : '1']);
    const unknown = /unknown option|does not apply to --(why|inspect)/;
    const parse: Record<CommandName, (argv: string[]) => unknown> = {
      blame: parseArgs,
      repairs: parseArgs,
      compare: parseArgs,
      merge: parseArgs,
      replay: (argv) => parseArgs(takeReplayArgs(argv)!.rest),
      why: parseWhyArgs,
      check: parseWhyArgs,
      inspect: parseInspectArgs,
      trend: parseTrendArgs,
    };
    for (const command of COMMAND_NAMES) {
      for (const spec of flagsOf(command).values()) {
        if (spec.name === '--help' || spec.name === '--version') continue;
        const positionals = command === 'merge' || command === 'compare' ? ['a.json', 'b.json'] : command === 'check' ? ['c.json'] : ['a.json'];
        const line = run([command, ...positionals, ...sample(spec.name, spec.value, spec.kind)]);
        try {
          parse[command](line.argv);
        } catch (e) {
          // A value refused (a check of the flag's own) is fine: the parser knew the flag.
          expect(String((e as Error).message), `${command} ${spec.name}`).not.toMatch(unknown);
        }
      }
    }
  });
});

describe('the command line', () => {
  it('keeps the flags that chose a mode: --replay, --why, --check, --inspect, --score', () => {
    expect(run(['runs.json', '--replay', '--expect', '42'])).toEqual({ kind: 'run', command: 'replay', argv: ['runs.json', '--replay', '--expect', '42'] });
    expect(run(['run.json', '--why=last', '--json']).command).toBe('why');
    expect(run(['--check', 'c.json']).command).toBe('check');
    expect(run(['logs', '--inspect']).command).toBe('inspect');
    expect(run(['logs', '--score', 'p.json']).command).toBe('inspect');
    expect(run(['runs.json', '--replay', '--score']).command).toBe('replay');
    expect(run(['a.json', 'b.json', '--save', 'c.json'])).toEqual({ kind: 'run', command: 'blame', argv: ['a.json', 'b.json', '--save', 'c.json'] });
  });

  it('puts each command\'s positionals where its parser reads them', () => {
    expect(run(['replay', 'runs.json', '--expect=42']).argv).toEqual(['runs.json', '--expect', '42', '--replay']);
    expect(run(['why', 'run.json']).argv).toEqual(['run.json', '--why', 'last']);
    expect(run(['why', 'run.json', '--why', 'tool:search']).argv).toEqual(['run.json', '--why', 'tool:search']);
    expect(run(['check', 'c.json', '--runs', '5']).argv).toEqual(['--runs', '5', '--check', 'c.json']);
    expect(run(['repairs', 't.json']).argv).toEqual(['t.json', '--repairs']);
    expect(run(['compare', 'now.json', 'before.json', '--json']).argv).toEqual(['now.json', '--json', '--compare', 'before.json']);
    expect(run(['merge', 'a.json', 'b.json']).argv).toEqual(['a.json', 'b.json']);
    expect(run(['inspect', 'logs']).argv).toEqual(['logs', '--inspect']);
    expect(run(['trend', 'sessions', '--by=tag:model', '--json']).argv).toEqual(['sessions', '--by', 'tag:model', '--json']);
    expect(run(['blame', 't.json', '--fix=retriever=x']).argv).toEqual(['t.json', '--fix', 'retriever=x']);
    // --score's file is optional for replay: taken when it is a predictions file.
    expect(run(['replay', 'r.json', '--score', 'my.predictions.json']).argv).toEqual(['r.json', '--score=my.predictions.json', '--replay']);
    expect(run(['replay', 'r.json', '--score', 'other.json']).argv).toEqual(['r.json', 'other.json', '--score', '--replay']);
  });

  it('refuses what the command does not take, before anything runs', () => {
    const refused = (argv: string[], message: string | RegExp) => expect(() => readCommandLine(argv)).toThrow(message instanceof RegExp ? message : new UsageError(message));
    refused(['t.json', '--bogus'], 'unknown option --bogus');
    refused(['t.json', '--expect', '42'], /^--expect needs --replay/);
    refused(['why', 'r.json', '--worlds', '3'], /^--worlds does not apply to --why \(agentblame why\): it is a flag of blame, replay, repairs, compare, merge/);
    refused(['replay', 'r.json', '--pipeline', 'p.js'], /^--pipeline does not apply to --replay/);
    refused(['blame', 't.json', '--replay'], /^--replay selects the replay command/);
    refused(['t.json', '--replay', '--why', 'last'], '--replay and --why are separate commands: give one of them');
    refused(['t.json', '--worlds'], '--worlds needs a value');
    refused(['t.json', '--json=yes'], /^--json takes no value/);
    refused(['merge', 'a.json'], /^merge: expected two or more session files/);
    refused(['compare', 'a.json'], /^compare: expected FILE and the EARLIER session file/);
    refused(['check'], /^check: expected one check file, got 0/);
    refused(['help', 'nope'], /^help: no topic "nope"/);
  });

  it('answers --help, COMMAND --help, help TOPIC and --version', () => {
    expect(readCommandLine(['--help'])).toEqual({ kind: 'help' });
    expect(readCommandLine(['t.json', '-h'])).toEqual({ kind: 'help' });
    expect(readCommandLine(['replay', '--help'])).toEqual({ kind: 'help', topic: 'replay' });
    expect(readCommandLine(['help', 'shards'])).toEqual({ kind: 'help', topic: 'shards' });
    expect(readCommandLine(['--version'])).toEqual({ kind: 'version' });
  });
});

describe('help', () => {
  it('--help lists every command and every flag with its default, grouped; exit 0', () => {
    const r = blameSync('--help');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    for (const c of COMMAND_NAMES) expect(r.stdout).toContain(`agentblame ${COMMANDS[c].usage}`);
    const flat = r.stdout.replace(/\s+/g, ' ');
    for (const f of FLAGS) {
      expect(r.stdout, f.name).toContain(`  ${flagSyntax(f)}`);
      if (f.default !== '') expect(flat, f.name).toContain(`[default: ${f.default.replace(/\s+/g, ' ')}]`);
    }
    expect(r.stdout).toContain('Method and settings:');
  });

  it('each command\'s help lists exactly its flags; every topic has help; --version prints the package version', () => {
    for (const topic of HELP_TOPICS) expect(helpText(topic, '0').length).toBeGreaterThan(100);
    for (const command of COMMAND_NAMES) {
      const text = helpText(command, '0');
      const flat = text.replace(/\s+/g, ' ');
      for (const f of flagsOf(command).values()) {
        expect(text, `${command} ${f.name}`).toContain(`  ${flagSyntax(f)}`);
        if (f.default !== '') expect(flat, `${command} ${f.name}`).toContain(`[default: ${f.default.replace(/\s+/g, ' ')}]`);
      }
    }
    const replay = helpText('replay', '0');
    // --pipeline FILE.js is not replay's (--pipeline-version, the study's label, is).
    expect(replay).not.toMatch(/--pipeline(?!-version)/);
    const why = blameSync('why', '--help');
    expect(why.status).toBe(0);
    expect(why.stdout).toBe(`${helpText('why', '0')}\n`);
    expect(why.stdout).not.toContain('--worlds');
    const version = blameSync('--version');
    expect(version.status).toBe(0);
    expect(version.stdout).toBe(`agentblame ${JSON.parse(read('package.json')).version}\n`);
  });
});

describe('the docs agree with the table', () => {
  it('docs/cli.md holds the generated tables (npm run docs:cli)', () => {
    const text = read('docs/cli.md');
    expect(withGenerated(text, cliDocTables()), 'docs/cli.md differs from the flag table: run npm run docs:cli').toBe(text);
  });

  it("the README's and docs/cli.md's lists of commands name every command", () => {
    for (const doc of ['README.md', 'docs/cli.md']) {
      const text = read(doc);
      const list = text.slice(text.search(/Commands: |A command names the mode: /)).split('\n\n')[0];
      for (const c of COMMAND_NAMES) expect(list, `${doc} lists ${c}`).toMatch(new RegExp(`\`(agentblame \\[)?${c}\\]?( FILE)?\``));
    }
  });

  it('every flag the README and docs/ write is a flag of the table', () => {
    // Other tools' flags the docs quote (npm, git, node, kubectl, curl, Playwright, llama.cpp, ...).
    const others = new Set([
      '--silent', '--ff-only', '--offline', '--prefer-offline', '--noEmit', '--tsconfig', '--threshold', '--test', '--for', '--from-literal', '--host', '--port',
      '--strictPort', '--save-dev', '--project', '--headed', '--grep', '--reporter', '--no-sandbox', '--ctx-size', '--jinja', '--model-url', '--most', '--repo', '--seconds', '--change', '--base',
      '--only', '--latency', '--max-logprobs', '--repeat-each', '--flag',
    ]);
    const known = new Set(FLAGS.map((f) => f.name));
    const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const stray: string[] = [];
    for (const doc of docs) {
      for (const m of read(doc).matchAll(/(?<![\w-])(--[a-z][a-z-]*[a-z])/g)) {
        if (!known.has(m[1]) && !others.has(m[1])) stray.push(`${doc}: ${m[1]}`);
      }
    }
    expect([...new Set(stray)]).toEqual([]);
  });
});

describe('every command line the docs show', () => {
  /** The command lines in the README's and docs' code blocks (continuations joined), as argument lists. */
  function documentedLines(): { doc: string; line: string; args: string[] }[] {
    const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const out: { doc: string; line: string; args: string[] }[] = [];
    for (const doc of docs) {
      for (const [, block] of read(doc).matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
        for (const raw of block.replace(/\\\n\s*/g, ' ').split('\n')) {
          const at = raw.search(/npm run --silent blame -- |npx agentblame |(^|\s)agentblame (?=[a-z-])/);
          if (at < 0) continue;
          const rest = raw.slice(at).replace(/^\s*(npm run --silent blame -- |npx agentblame |agentblame )/, '');
          // Up to the shell's own syntax: a comment, a pipe, a redirection, another command.
          const command = rest.split(/\s(?:#|\||>|2>|&&|;|&)(?:\s|$)|\s>\S/)[0];
          const args = command.trim().split(/\s+/).filter((a) => a !== '').map((a) => a.replace(/^"(.*)"$/, '$1'));
          if (args.length > 0 && args[0] !== 'ARGS') out.push({ doc, line: raw.trim(), args });
        }
      }
    }
    return out;
  }

  it('is read by the flag table as written (the flags that chose a mode included)', () => {
    const lines = documentedLines();
    expect(lines.length).toBeGreaterThan(30);
    const refused: string[] = [];
    for (const { doc, line, args } of lines) {
      try {
        readCommandLine(args);
      } catch (e) {
        refused.push(`${doc}: ${line}\n  ${(e as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
