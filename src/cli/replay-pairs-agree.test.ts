/**
 * The training pairs of a replayed recorded run, written by the command's --replay --pairs
 * against the loopback endpoint, by the page's "Export pairs" from the same run set up as "Blame
 * this run" sets it up and analysed in process, and by the command again from the session saved
 * by the first run: each repaired model turn is one record (recorded request as prompt, recorded
 * answer rejected, repaired answer chosen), the same in all three (a session does not record the
 * fix each step used, so its `fix` is null).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { readLangfuse } from '../formats/importers/langfuse.ts';
import { useFakeEndpoints } from '../model/testing/use-fake-endpoints.ts';
import { analyzeWithModel } from '../replay/testing/model-loop.ts';
import { langfuseExport, scriptedModel } from '../replay/testing/runs.ts';
import { compilePipeline } from '../sandbox/compile.ts';
import { ReplaySetup } from '../app/replay/replay-setup.svelte.ts';
import { pagePairs, pairsJsonl } from '../app/repairs/pairs-export.ts';
import { DEFAULT_REPAIR_SIZE } from './repair-args.ts';
import { runBlame } from './testing/run-blame.ts';

const STUB = `export default {
  python: (code) => { const m = /print\\((\\d+) \\* (\\d+)\\)/.exec(code); return 'exitcode: 0 (execution succeeded)\\nCode output: ' + (m ? m[1] * m[2] : '?'); },
};`;

const blame = (args: string[]) => runBlame(args);

describe('training pairs of a replayed recorded run: the command, the page and a saved session agree', () => {
  const fake = useFakeEndpoints();
  it('write the repaired turn as one record, with equal lines', async () => {
    const endpoint = await fake({ answer: scriptedModel });
    const dir = mkdtempSync(join(tmpdir(), 'blame-replay-pairs-'));
    const input = join(dir, 'langfuse.json');
    writeFileSync(input, JSON.stringify(langfuseExport()));
    writeFileSync(join(dir, 'tools.js'), STUB);
    const commandFile = join(dir, 'command.pairs.jsonl');
    const session = join(dir, 'replay.session.json');
    const r = await blame([input, '--replay', '--expect', '42', '--tools', join(dir, 'tools.js'), '--model-url', endpoint.url, '--model', 'fake-model', '--pairs', commandFile, '--save', session, '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const command = readFileSync(commandFile, 'utf8');
    const lines = command.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ case: 't1', rejected: 'print(6 * 8)  # 6 times 7', chosen: 'print(6 * 7)  # 6 times 7', fix: 'repair' });

    // The page: the run set up as "Blame this run" does, analysed in process with the repair search on.
    const setup = new ReplaySetup(readLangfuse(JSON.stringify(langfuseExport())).runs[0], 'langfuse.json');
    setup.expect = '42';
    setup.tools = { file: { fileName: 'tools.js', source: STUB }, names: new Set(['python']) };
    if (!setup.result.ok) throw new Error(setup.result.problem);
    const { definition } = setup.result;
    const settings = { ...DEFAULT_SETTINGS, models: { default: 'fake-model' }, repairs: { size: DEFAULT_REPAIR_SIZE } };
    const results = definition.cases.map((c) => analyzeWithModel(definition.source, c, settings, scriptedModel).result);
    const compiled = compilePipeline(definition.source, 'replay.js');
    const pageDef = { steps: compiled.steps, fixOf: (step: string) => compiled.steps.find((s) => s.name === step)?.fixes[0]?.name ?? null };
    const page = pairsJsonl(pagePairs(results, definition.cases, pageDef));
    expect(page.split('\n')).toEqual(command.split('\n'));

    // The saved session printed again: the same records, without the fix names it does not keep.
    const printedFile = join(dir, 'printed.pairs.jsonl');
    const printed = await blame([session, '--pairs', printedFile]);
    expect(printed.stderr).toBe('');
    expect(printed.status).toBe(0);
    const again = readFileSync(printedFile, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(again).toEqual(lines.map((p) => ({ ...p, fix: null })));
  }, 60_000);
});
