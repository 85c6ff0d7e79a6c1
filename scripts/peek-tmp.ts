import { readFileSync } from 'node:fs';
import { parseInputFile } from '/work/wt/tools/src/formats/detect.ts';
import { buildReplay } from '/work/wt/tools/src/replay/index.ts';
for (const name of process.argv.slice(2)) {
  const input = parseInputFile(readFileSync('/work/shared/samples/' + name, 'utf8'), name) as any;
  for (const run of input.runs.runs) {
    try {
      const def = buildReplay([run], { players: 'steps', fixes: [], outcome: { kind: 'expect', text: 'x' }, origin: 'x' });
      console.log('==', name, run.id, 'steps', def.steps.join(' | '));
      for (const t of def.runs[0].turns) console.log(' ', t.index, t.step, t.kind, JSON.stringify(t.name), 'agent=' + t.agent, 'dep', JSON.stringify(t.dependsOn), 'subs', t.substitutions.length, 'tools', t.tools?.length ?? 0, 'T', t.temperature, 'max', t.max_tokens, 'calls', JSON.stringify(t.toolCalls ?? t.call ?? null).slice(0, 120), 'ctx', t.context.map((m) => m.role[0] + (m.tool_calls ? 'C' : '') + (m.tool_call_id ? 'I' : '')).join(''));
    } catch (e) { console.log('==', name, String(e).slice(0, 200)); }
  }
}
