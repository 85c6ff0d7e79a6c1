/**
 * The run view's tree and chat: subtrees collapse and expand (also by
 * ArrowLeft/ArrowRight as in a treeview), "only model and tool calls" leaves the model and tool
 * calls of a 125-span Jaeger export, subtrees total their tokens. Built from a trace of our own;
 * the shared Jaeger sample is read too, skipped when absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { dropFiles } from './workbench-helpers.ts';

const SAMPLES = join(process.env.AGENTBLAME_SHARED ?? join(import.meta.dirname, '../../shared'), 'samples');

type Tag = { key: string; type: string; value: string | number };
const T0 = 1_771_000_000_000_000;
const TRACE = '0af7651916cd43dd8448eb211c80319c';

/** A Jaeger span: ids as 16 hex digits, times in µs. */
function span(n: number, name: string, parent: number | null, start: number, duration: number, tags: Record<string, string | number> = {}) {
  const id = (k: number) => k.toString(16).padStart(16, '0');
  return {
    traceID: TRACE,
    spanID: id(n),
    operationName: name,
    references: parent === null ? [] : [{ refType: 'CHILD_OF', traceID: TRACE, spanID: id(parent) }],
    startTime: T0 + start,
    duration,
    tags: Object.entries(tags).map(([key, value]): Tag => ({ key, type: typeof value === 'number' ? 'int64' : 'string', value })),
    logs: [],
    processID: 'p1',
  };
}

const FLATTENED = 'developer: You are a weather agent.\nAnswer briefly.\nuser: What is the weather in Paris?\ntool: {"temp":21,"sky":"clear"}';
const ANSWER = [
  '## Paris',
  '',
  'It is **21 °C** and `clear`.',
  '',
  '- see [the forecast](https://weather.example/paris)',
  '- or [this](javascript:window.__pwned=1)',
  '',
  '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>',
].join('\n');

/** 125 spans: a request, 120 queue events of an agent server around two model calls and a tool call. */
function jaegerExport() {
  const spans = [span(1, 'POST /invoke', null, 0, 10_000_000), span(2, 'invoke_agent weather', 1, 100, 9_000_000, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'weather' })];
  let n = 3;
  const noise = (count: number, parent: number, at: number) => {
    for (let k = 0; k < count; k++) spans.push(span(n++, 'a2a.server.events.event_queue.EventQueue.dequeue_event', parent, at + k * 10, 5));
  };
  noise(60, 1, 200);
  const chat = (parent: number, at: number, input: number, output: number, messages: Record<string, string>) =>
    span(n++, 'chat gpt-4o-mini', parent, at, 1_000_000, { 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output, ...messages });
  // The first call's input as agno records it: one flattened string. It answers with a tool call.
  spans.push(chat(2, 1_000_000, 1200, 40, { 'input.value': FLATTENED, 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","units":"metric"}' } }] }]) }));
  spans.push(span(n++, 'execute_tool get_weather', 2, 2_100_000, 300_000, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather' }));
  // The second answers in markdown, with markup a hostile trace could carry.
  spans.push(chat(2, 3_000_000, 1300, 60, { 'input.value': 'user: and tomorrow?', 'output.value': ANSWER }));
  noise(125 - spans.length, 2, 5_000_000);
  return { data: [{ traceID: TRACE, spans, processes: { p1: { serviceName: 'weather-agent', tags: [] } }, warnings: null }] };
}

test('the tree collapses and expands (mouse and keys), totals its subtrees, and shows only the calls on demand', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [{ name: 'weather.jaeger.json', content: JSON.stringify(jaegerExport()), type: 'application/json' }]);
  const run = page.getByRole('region', { name: /^Run / });
  await expect(run).toContainText('125 steps');
  const tools = run.getByRole('toolbar', { name: 'Tree' });
  const steps = run.getByRole('listbox', { name: 'Steps' });

  // The agent's subtree totals its two model calls' tokens.
  const agent = steps.getByRole('option').filter({ hasText: 'invoke_agent weather' });
  await expect(agent).toContainText('Σ 2500+100');

  // At a glance: the two model calls and the tool call, nothing else.
  await tools.getByLabel('Only model and tool calls').check();
  await expect(tools).toContainText('3 of 125 steps shown');
  await expect(steps.getByRole('option')).toHaveCount(3);
  await expect(steps.getByRole('option').nth(1)).toContainText('execute_tool get_weather');
  await tools.getByLabel('Only model and tool calls').uncheck();

  // Collapse all leaves the root; its toggle opens it again.
  await tools.getByRole('button', { name: 'Collapse all' }).click();
  await expect(tools).toContainText('1 of 125 steps shown');
  await expect(steps.getByRole('option').first()).toContainText('Σ 2500+100');
  await steps.getByRole('button', { name: 'Expand POST /invoke' }).click();
  await expect(tools).toContainText('62 of 125 steps shown');

  // Keys, as in a treeview: right opens, right again goes to the first child, left goes back up and closes.
  await steps.getByRole('option').first().click();
  await steps.focus();
  // Siblings go by start: the agent started before the queue events beside it.
  await page.keyboard.press('ArrowDown');
  await expect(steps.getByRole('option', { selected: true })).toContainText('invoke_agent weather');
  await page.keyboard.press('ArrowRight');
  await expect(tools).toContainText('125 of 125 steps shown');
  await expect(steps.getByRole('button', { name: 'Collapse invoke_agent weather' })).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(steps.getByRole('option', { selected: true })).toContainText('chat gpt-4o-mini');
  await page.keyboard.press('ArrowLeft');
  await expect(steps.getByRole('option', { selected: true })).toContainText('invoke_agent weather');
  await page.keyboard.press('ArrowLeft');
  await expect(tools).toContainText('62 of 125 steps shown');
  await page.keyboard.press('ArrowLeft');
  await expect(steps.getByRole('option', { selected: true })).toContainText('POST /invoke');

  // Find opens what hides the step it finds.
  await page.keyboard.press('ArrowLeft');
  await expect(tools).toContainText('1 of 125 steps shown');
  await run.getByRole('searchbox', { name: 'Find a step' }).fill('execute_tool');
  await run.getByRole('button', { name: 'Next match' }).click();
  await expect(steps.getByRole('option', { selected: true })).toContainText('execute_tool get_weather');
});

test('on a phone the tree tools fit and the filter works', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./');
  await dropFiles(page, [{ name: 'weather.jaeger.json', content: JSON.stringify(jaegerExport()), type: 'application/json' }]);
  const run = page.getByRole('region', { name: /^Run / });
  await run.getByRole('toolbar', { name: 'Tree' }).getByLabel('Only model and tool calls').check();
  await expect(run.getByRole('listbox', { name: 'Steps' }).getByRole('option')).toHaveCount(3);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('the shared Jaeger export of a Helm agent reads at a glance: its two model calls', async ({ page }) => {
  const file = join(SAMPLES, 'otel-genai/variants/agentevals_kagent_helm.jaeger.json');
  test.skip(!existsSync(file), 'the shared samples are not beside this checkout');
  await page.goto('./');
  await dropFiles(page, [{ name: 'helm.jaeger.json', content: readFileSync(file, 'utf8'), type: 'application/json' }]);
  const run = page.getByRole('region', { name: /^Run / });
  await run.getByRole('toolbar', { name: 'Tree' }).getByLabel('Only model and tool calls').check();
  const options = run.getByRole('listbox', { name: 'Steps' }).getByRole('option');
  await expect(options.filter({ hasText: 'openai.chat' })).toHaveCount(2);
  expect(await options.count()).toBeLessThanOrEqual(8);
});

test('the chat splits a flattened input, shows tool calls with their arguments, and renders markdown answers safely', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [{ name: 'weather.jaeger.json', content: JSON.stringify(jaegerExport()), type: 'application/json' }]);
  const run = page.getByRole('region', { name: /^Run / });
  const steps = run.getByRole('listbox', { name: 'Steps' });
  await run.getByRole('toolbar', { name: 'Tree' }).getByLabel('Only model and tool calls').check();

  await steps.getByRole('option').first().click();
  const detail = page.getByRole('article', { name: 'Step chat gpt-4o-mini' });
  const input = detail.locator('.chat').first();
  await expect(input.locator('.who strong')).toHaveText(['developer', 'user', 'tool']);
  await expect(input.locator('.msg').nth(0)).toContainText('Answer briefly.');
  await expect(input.locator('.msg').nth(2)).toContainText('"sky": "clear"');
  const call = detail.getByLabel('Tool call get_weather');
  await expect(call).toContainText('call_1');
  await expect(call.locator('pre')).toHaveText('{\n  "city": "Paris",\n  "units": "metric"\n}');

  await steps.getByRole('option').nth(2).click();
  const answer = page.getByRole('article', { name: 'Step chat gpt-4o-mini' }).locator('.chat').nth(1);
  await expect(answer.getByRole('heading', { name: 'Paris' })).toBeVisible();
  await expect(answer.locator('strong').filter({ hasText: '21 °C' })).toBeVisible();
  const link = answer.getByRole('link', { name: 'the forecast' });
  await expect(link).toHaveAttribute('href', 'https://weather.example/paris');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  // Nothing from the trace became markup: no image, no script, no javascript: link; it shows as text.
  await expect(answer.locator('img, script, [onerror]')).toHaveCount(0);
  await expect(answer.getByRole('link')).toHaveCount(1);
  await expect(answer).toContainText('<script>window.__pwned=1</script>');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await answer.getByRole('button', { name: 'Markdown source' }).click();
  await expect(answer.locator('pre.text')).toContainText('## Paris');
});

test('prices typed per model give each step, subtree and the run a cost, kept in this browser', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [{ name: 'weather.jaeger.json', content: JSON.stringify(jaegerExport()), type: 'application/json' }]);
  const run = page.getByRole('region', { name: /^Run / });
  // None built in: no cost until a price is given.
  await expect(run.locator('.head')).not.toContainText('$');
  await run.getByText('Prices (0 of 1 models priced)').click();
  const price = run.getByRole('form', { name: 'Price of gpt-4o-mini' });
  await price.getByLabel('gpt-4o-mini input price per 1M tokens').fill('1');
  await price.getByLabel('gpt-4o-mini output price per 1M tokens').fill('10');
  await price.getByRole('button', { name: 'Save' }).click();
  // 2500 in at $1 and 100 out at $10 per 1M tokens.
  await expect(run.locator('.head')).toContainText('$0.00350');
  await expect(run.getByRole('listbox', { name: 'Steps' }).getByRole('option').filter({ hasText: 'invoke_agent weather' })).toContainText('Σ 2500+100 $0.00350');
  await run.getByRole('toolbar', { name: 'Tree' }).getByLabel('Only model and tool calls').check();
  await run.getByRole('listbox', { name: 'Steps' }).getByRole('option').first().click();
  await expect(page.getByRole('article', { name: 'Step chat gpt-4o-mini' })).toContainText('$0.00160');
  await page.reload();
  await expect(page.getByRole('region', { name: /^Run / }).locator('.head')).toContainText('$0.00350', { timeout: 30_000 });
});
