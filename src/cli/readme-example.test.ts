/**
 * The README fits a first screen and its worked example runs as written: the command (with the
 * stand-in model at another port) prints exactly the output the README shows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeEndpoints } from '../model/testing/use-fake-endpoints.ts';
import { scriptedModel } from '../replay/testing/runs.ts';
import { runBlame } from './testing/run-blame.ts';

const README = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');

/** The worked example's section: its command (continuation lines joined) and the output block after it. */
function workedExample(): { args: string[]; shown: string[] } {
  const section = README.slice(README.indexOf('## Worked example'));
  const [, commands, output] = /```bash\n([\s\S]*?)```\s*```\n([\s\S]*?)```/.exec(section) ?? [];
  const command = commands.replace(/\\\n\s*/g, '').split('\n').find((line) => line.startsWith('npm run --silent blame -- '))!;
  return { args: command.slice('npm run --silent blame -- '.length).trim().split(/\s+/), shown: output.trimEnd().split('\n') };
}

describe("the README's worked example", () => {
  const startFake = useFakeEndpoints();

  it('prints exactly what the README shows, every line (the README shows the whole output, not an excerpt)', async () => {
    const endpoint = await startFake({ answer: scriptedModel, models: ['gpt-test', 'fake-model'] });
    const { args, shown } = workedExample();
    expect(args).toContain('--model-url');
    expect(shown.length).toBeGreaterThan(3);
    const r = await runBlame(args.map((a) => a.replace(/^http:\/\/127\.0\.0\.1:8090\/v1$/, endpoint.url)));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual(shown);
  });
});

describe('the README', () => {
  it('stays short: under 150 lines, with the quick start, one screenshot shown and the others linked, the command and "In CI" linking docs/ci.md', () => {
    expect(README.split('\n').length).toBeLessThan(150);
    expect(README).toContain('npm ci && npm start');
    expect(README).toContain('npm ci && npm test');
    expect(README.match(/!\[[^\]]+\]\(docs\/images\/[^)]+\.png\)/g)).toHaveLength(1);
    // The other screenshots are linked, not shown: every picture in docs/images/ is reachable from here.
    for (const png of readdirSync(join(import.meta.dirname, '../../docs/images')).filter((f) => f.endsWith('.png'))) expect(README).toContain(`](docs/images/${png})`);
    const ci = README.slice(README.indexOf('## In CI'));
    expect(ci.slice(0, ci.indexOf('\n## ', 3))).toContain('](docs/ci.md)');
  });
});
