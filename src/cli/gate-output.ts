/**
 * The regression verdict (docs/ci.md) as the command writes it: the verdict of the regression game or
 * of two studies compared, the lines printed, the GitHub-flavoured markdown summary and the JUnit
 * XML report. Every name in them comes from a definition or a file, so each output escapes it its
 * own way: the terminal (printable), markdown table cells, XML text and attributes.
 */
import type { CaseResult } from '../engine/types.ts';
import { gateVerdict, pairedFailureRateChange, unpairedFailureRateChange, verdictLine, riseText, changeSentences, type BlameRise, type GateVerdict } from '../engine/regression/verdict.ts';
import type { StudyComparison } from '../engine/compare-studies.ts';
import type { RegressionExtras } from './regression-command.ts';
import { printable } from './printable.ts';
import { table } from './compare.ts';

/** What a verdict was judged from, for the summary's table and the JUnit report. */
export type GateSource = { kind: 'against'; extras: RegressionExtras } | { kind: 'compare'; against: string; comparison: StudyComparison };

export interface JudgedGate {
  verdict: GateVerdict;
  source: GateSource;
}

/** The regression game's verdict: the failure rate over the cases both versions ran, each change's blame for the new failures. */
export function againstVerdict(extras: RegressionExtras, threshold: number): JudgedGate {
  return { verdict: gateVerdict(extras.summary.failureRate, extras.summary.rises, threshold), source: { kind: 'against', extras } };
}

/**
 * Two studies compared (`--compare`): the failure rate paired by case when both judged the same
 * cases, unpaired otherwise; each step's change of mean Shapley with its interval (a step only the
 * later study has rises by its whole mean).
 */
export function compareVerdict(earlier: readonly CaseResult[], now: readonly CaseResult[], against: string, comparison: StudyComparison, threshold: number): JudgedGate {
  const judged = (rs: readonly CaseResult[]) => new Map(rs.filter((r) => r.error === undefined).map((r) => [r.id, r.failed]));
  const before = judged(earlier);
  const after = judged(now);
  const sameCases = before.size === after.size && [...after.keys()].every((id) => before.has(id));
  const failures = (m: Map<string, boolean>) => [...m.values()].filter(Boolean).length;
  const failureRate = sameCases
    ? pairedFailureRateChange([...after.entries()].map(([id, failsNow]) => ({ failsNow, failsBefore: before.get(id)! })), comparison.delta)
    : unpairedFailureRateChange({ failures: failures(before), cases: before.size }, { failures: failures(after), cases: after.size }, comparison.delta);
  const rises: BlameRise[] = [];
  for (const s of comparison.steps) {
    if (s.after === null) continue;
    if (s.before === null) rises.push({ step: s.step, rise: s.after.meanShapley, ci: [s.after.ci[0], s.after.ci[1]], before: null, now: s.after.meanShapley });
    else if (s.shapleyChange !== null && s.ci !== null) rises.push({ step: s.step, rise: s.shapleyChange, ci: [s.ci[0], s.ci[1]], before: s.before.meanShapley, now: s.after.meanShapley });
  }
  return { verdict: gateVerdict(failureRate, rises, threshold), source: { kind: 'compare', against, comparison } };
}

/** The verdict line, for a terminal. */
export function terminalVerdict(gate: JudgedGate): string {
  return verdictLine(gate.verdict, (name) => `"${printable(name)}"`);
}

const signed = (x: number): string => `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(3)}`;
const pct = (x: number): string => `${Math.round(100 * x)} %`;

/** The regression game's section after the batch tables: what changed, what each change caused. */
export function formatRegression(extras: RegressionExtras): string {
  const { game, summary } = extras;
  const name = (text: string) => `"${printable(text)}"`;
  const changed = game.plan.steps.filter((s) => s.change !== 'unchanged');
  const lines = [
    `regression game: "${printable(extras.after)}" against "${printable(extras.before)}"; ${changed.length === 0 ? 'no step changed' : `changes: ${changed.map((s) => `${name(s.name)} (${s.change})`).join(', ')}`}`,
    `${summary.newFailures.length} new failure${summary.newFailures.length === 1 ? '' : 's'} (fail now, pass with every change reverted), ${summary.stillFailing.length} failing before as well, ${summary.fixed.length} fixed by the change${summary.errors.length > 0 ? `, ${summary.errors.length} not analysed` : ''}`,
  ];
  lines.push(...changeSentences(summary.rises, name));
  if (summary.rises.length > 0 && summary.newFailures.length > 0) {
    const rows = summary.rises.map((s) => [printable(s.step), s.change ?? '', signed(s.rise), `[${signed(s.ci[0])}, ${signed(s.ci[1])}]`, pct(s.share ?? 0), pct(s.fixAloneRate ?? 0)]);
    lines.push(table(['step', 'change', 'mean blame (new failures)', 'CI', 'share', 'reverting alone fixes'], rows));
  }
  return lines.join('\n');
}

/**
 * Text from a file as one markdown table cell or inline text: no line breaks or control characters,
 * HTML's three specials as entities, every ASCII punctuation mark markdown gives a meaning to
 * escaped with a backslash (so `|` stays in its cell and no link, image or emphasis is made), and
 * `@` as an entity (no mention).
 */
export function markdownText(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/[\\`*_{}[\]()#+\-.!|~:]/g, (ch) => `\\${ch}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, '&#64;');
}

/** The GitHub-flavoured markdown summary: a heading, the verdict, and the table it was judged from. */
export function markdownSummary(gate: JudgedGate): string {
  const { verdict, source } = gate;
  const out = [`### agentblame: ${verdict.regression ? 'regression' : 'no regression'}`, '', markdownVerdict(verdict), ''];
  const mark = (s: BlameRise) => (verdict.risen.includes(s) ? `fails: rose above ${verdict.threshold}` : 'passes');
  const f = verdict.failureRate;
  const rate = (failures: number, cases: number) => (cases === 0 ? '-' : (failures / cases).toFixed(3));
  const rateCells = `${signed(f.change)} | [${signed(f.ci[0])}, ${signed(f.ci[1])}]`;
  const rateGate = verdict.failureRateRose ? 'fails: rose above 0' : 'passes';
  if (source.kind === 'against') {
    const { summary } = source.extras;
    out.push(`Regression game of ${markdownText(source.extras.after)} against ${markdownText(source.extras.before)}: ${summary.newFailures.length} new failures, ${summary.stillFailing.length} failing before as well, ${summary.fixed.length} fixed.`, '');
    out.push('| step | change | mean blame of the new failures | interval | share | reverting alone fixes | gate |', '| --- | --- | ---: | --- | ---: | ---: | --- |');
    for (const s of verdict.steps) out.push(`| ${markdownText(s.step)} | ${s.change ?? ''} | ${signed(s.rise)} | [${signed(s.ci[0])}, ${signed(s.ci[1])}] | ${pct(s.share ?? 0)} | ${pct(s.fixAloneRate ?? 0)} | ${mark(s)} |`);
    out.push(`| failure rate | ${rate(f.failuresBefore, f.casesBefore)} → ${rate(f.failuresNow, f.casesNow)} | ${rateCells} | | | ${rateGate} |`);
  } else {
    out.push(`Compared with ${markdownText(source.against)} (intervals at ${Math.round(100 * (1 - source.comparison.delta))} %, ${source.comparison.paired ? 'paired by case' : 'unpaired'}).`, '');
    out.push('| step | mean Shapley before | now | change | interval | gate |', '| --- | ---: | ---: | ---: | --- | --- |');
    for (const s of verdict.steps) out.push(`| ${markdownText(s.step)} | ${s.before === null || s.before === undefined ? '-' : signed(s.before)} | ${s.now === null || s.now === undefined ? '-' : signed(s.now)} | ${signed(s.rise)} | [${signed(s.ci[0])}, ${signed(s.ci[1])}] | ${mark(s)} |`);
    out.push(`| failure rate | ${rate(f.failuresBefore, f.casesBefore)} | ${rate(f.failuresNow, f.casesNow)} | ${rateCells} | ${rateGate} |`);
  }
  return out.join('\n') + '\n';
}

/**
 * The verdict line in markdown, the outcome in bold: step names go in as placeholders (private-use
 * characters the escaping leaves alone) and come back escaped on their own, in bold.
 */
function markdownVerdict(verdict: GateVerdict): string {
  const names: string[] = [];
  const line = verdictLine(verdict, (text) => {
    names.push(text);
    return `\ue000${names.length - 1}\ue001`;
  });
  const colon = line.indexOf(':');
  const escaped = `**${line.slice(0, colon)}**${markdownText(line.slice(colon))}`;
  return escaped.replace(/\ue000(\d+)\ue001/g, (_, k: string) => `**${markdownText(names[Number(k)])}**`);
}

/** Text as XML 1.0 character data or an attribute value: the five entities, line breaks as references, characters XML cannot hold dropped. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\ud800-\udbff\udc00-\udfff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

/** The JUnit XML report: one test case for the failure rate and one per step, a failure where the gate failed. */
export function junitReport(gate: JudgedGate): string {
  const { verdict } = gate;
  const cases: { name: string; classname: string; failure: string | null; detail: string }[] = [];
  const f = verdict.failureRate;
  const rateDetail = verdictLine({ ...verdict, cause: null, risen: [] }, (text) => text).replace(/^[^:]*: /, '').replace(/; no step.*$/, '');
  cases.push({ name: 'failure rate', classname: 'agentblame.gate', failure: verdict.failureRateRose ? `the failure rate rose: ${rateDetail}` : null, detail: `${signed(f.change)} [${signed(f.ci[0])}, ${signed(f.ci[1])}]` });
  for (const s of verdict.steps) {
    const text = riseText(s, (x) => `"${x}"`);
    cases.push({ name: `step ${s.step}`, classname: 'agentblame.steps', failure: verdict.risen.includes(s) ? `mean blame rose by more than ${verdict.threshold}: ${text}` : null, detail: text });
  }
  const failures = cases.filter((c) => c.failure !== null).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agentblame" tests="${cases.length}" failures="${failures}" errors="0">`,
    `  <testsuite name="agentblame regression gate" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`,
  ];
  for (const c of cases) {
    lines.push(`    <testcase name="${xmlText(c.name)}" classname="${c.classname}">`);
    if (c.failure !== null) lines.push(`      <failure message="${xmlText(c.failure)}" type="regression">${xmlText(c.detail)}</failure>`);
    else lines.push(`      <system-out>${xmlText(c.detail)}</system-out>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>');
  return lines.join('\n') + '\n';
}

/** `--json`'s `regression`: what changed, the cases by kind, the failure rate and each change's blame. */
export function regressionJson(extras: RegressionExtras): Record<string, unknown> {
  const { game, summary } = extras;
  return {
    against: extras.before,
    steps: game.plan.steps.map((s) => ({ step: s.name, change: s.change })),
    notes: game.plan.notes,
    newFailures: summary.newFailures,
    stillFailing: summary.stillFailing,
    fixed: summary.fixed,
    failureRate: summary.failureRate,
    changes: summary.rises,
    batch: summary.batch,
  };
}

/** `--json`'s `gate`: the verdict, its line and what it was judged by. */
export function gateJson(gate: JudgedGate): Record<string, unknown> {
  const v = gate.verdict;
  return {
    regression: v.regression,
    verdict: verdictLine(v, (name) => `"${name}"`),
    threshold: v.threshold,
    failureRateRose: v.failureRateRose,
    failureRate: v.failureRate,
    cause: v.cause?.step ?? null,
    risen: v.risen.map((s) => s.step),
    steps: v.steps,
  };
}
