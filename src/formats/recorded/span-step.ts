/**
 * One span (in any OTel encoding, once folded) to a step: kind, model, tokens, error and where its
 * messages are, from the attribute vocabularies seen in the samples: OTel GenAI (new and old
 * names), OpenInference, LangSmith's OTel bridge, OpenLLMetry/Traceloop, Vercel AI SDK, ADK,
 * any-agent and AgentOps (FORMATS.md §2, §3, §7).
 */
import type { MessageSource, StepDraft, StepKind, TokenUsage } from '../../runs/index.ts';
import { childPath } from '../json-path.ts';
import { toCount } from './fields.ts';
import { langsmithKind } from './langsmith-kind.ts';

export interface SpanEvent {
  name: string;
  attributes: Record<string, unknown>;
}

export interface FoldedSpan {
  id: string;
  parent: string | null;
  name: string;
  start: number | null;
  end: number | null;
  attributes: Record<string, unknown>;
  /** The span's status says it failed; the message when there is one. */
  failed: boolean;
  statusMessage?: string;
  events: SpanEvent[];
  /** JSON path of the span in the file, for error messages. */
  path: string;
}

const OPENINFERENCE_KIND: Record<string, StepKind> = {
  LLM: 'llm',
  TOOL: 'tool',
  AGENT: 'agent',
  CHAIN: 'chain',
  RETRIEVER: 'retriever',
  RERANKER: 'retriever',
};

const GENAI_OPERATION_KIND: Record<string, StepKind> = {
  chat: 'llm',
  text_completion: 'llm',
  generate_content: 'llm',
  call_llm: 'llm',
  execute_tool: 'tool',
  invoke_agent: 'agent',
  create_agent: 'agent',
  invoke_workflow: 'chain',
};

const LABELLED_KIND: Record<string, StepKind> = {
  llm: 'llm',
  tool: 'tool',
  agent: 'agent',
  chain: 'chain',
  workflow: 'chain',
  task: 'chain',
  retriever: 'retriever',
};

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function spanKind(name: string, a: Record<string, unknown>): StepKind {
  const oi = text(a['openinference.span.kind']);
  if (oi !== undefined) return Object.hasOwn(OPENINFERENCE_KIND, oi.toUpperCase()) ? OPENINFERENCE_KIND[oi.toUpperCase()] : 'other';
  // LangSmith's exporter writes `gen_ai.operation.name=chat` on prompt templates too: its own kind wins.
  const langsmith = text(a['langsmith.span.kind']);
  const byLangsmith = langsmith === undefined ? undefined : langsmithKind(langsmith);
  if (byLangsmith !== undefined) return byLangsmith;
  // ADK's `call_llm` wrapper carries no operation name; the span name starts with it.
  const op = text(a['gen_ai.operation.name']) ?? name.split(' ')[0];
  if (Object.hasOwn(GENAI_OPERATION_KIND, op)) return GENAI_OPERATION_KIND[op];
  for (const key of ['langsmith.span.kind', 'traceloop.span.kind', 'agentops.span.kind']) {
    const label = text(a[key]);
    if (label !== undefined && Object.hasOwn(LABELLED_KIND, label.toLowerCase())) return LABELLED_KIND[label.toLowerCase()];
  }
  if (name.startsWith('ai.toolCall')) return 'tool';
  if (/^ai\.\w+\.do(Generate|Stream)$/.test(name)) return 'llm';
  if (/^ai\.(generateText|streamText|generateObject|streamObject)$/.test(name)) return 'chain';
  const suffix = /\.(llm|agent|task|workflow|tool)$/.exec(name);
  if (suffix) return LABELLED_KIND[suffix[1]];
  if (op === 'embeddings') return 'other';
  if (a['gen_ai.request.model'] !== undefined || /^(openai|anthropic|gemini|bedrock|cohere|mistral)\.(chat|completion|messages)/.test(name)) return 'llm';
  if (text(a['gen_ai.tool.name']) !== undefined) return 'tool';
  return 'other';
}

function firstText(a: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = text(a[key]);
    if (value !== undefined) return value;
  }
  return null;
}

function firstCount(a: Record<string, unknown>, keys: readonly string[], path: string): number | undefined {
  for (const key of keys) {
    const count = toCount(a[key], childPath(childPath(path, 'attributes'), key));
    if (count !== undefined) return count;
  }
  return undefined;
}

const INPUT_TOKENS = ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens', 'llm.token_count.prompt', 'ai.usage.inputTokens', 'ai.usage.promptTokens'];
const OUTPUT_TOKENS = ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens', 'llm.token_count.completion', 'ai.usage.outputTokens', 'ai.usage.completionTokens'];

export function spanUsage(a: Record<string, unknown>, path: string): TokenUsage | null {
  const input = firstCount(a, INPUT_TOKENS, path);
  const output = firstCount(a, OUTPUT_TOKENS, path);
  if (input === undefined && output === undefined) return null;
  return { input: input ?? 0, output: output ?? 0 };
}

function hasPrefix(a: Record<string, unknown>, prefix: string): boolean {
  for (const key in a) if (key.startsWith(prefix)) return true;
  return false;
}

function valueSource(a: Record<string, unknown>, keys: readonly string[], role?: string): MessageSource | undefined {
  for (const key of keys) {
    const value = a[key];
    if (value !== undefined && value !== null && value !== '') return role ? { form: 'value', value, role } : { form: 'value', value };
  }
  return undefined;
}

/** The messages (or tool arguments) that went in. */
export function spanInput(kind: StepKind, a: Record<string, unknown>, events: readonly SpanEvent[]): MessageSource | undefined {
  if (kind === 'tool') {
    const args = valueSource(a, ['gen_ai.tool.call.arguments', 'gcp.vertex.agent.tool_call_args', 'gen_ai.tool.args', 'ai.toolCall.args', 'input.value', 'input'], 'tool');
    if (args) return args;
  }
  const direct = valueSource(a, ['gen_ai.input.messages', 'ai.prompt.messages']);
  if (direct) return direct;
  if (hasPrefix(a, 'llm.input_messages.')) return { form: 'flat', scheme: 'openinference', prefix: 'llm.input_messages' };
  if (hasPrefix(a, 'gen_ai.prompt.')) return { form: 'flat', scheme: 'genai', prefix: 'gen_ai.prompt' };
  const fromEvents = eventMessages(events, false);
  if (fromEvents) return fromEvents;
  return valueSource(a, ['input.value', 'gcp.vertex.agent.llm_request', 'ai.prompt', 'traceloop.entity.input', 'gen_ai.prompt']);
}

/** What came out: the model's messages, or the tool's result. */
export function spanOutput(kind: StepKind, a: Record<string, unknown>, events: readonly SpanEvent[]): MessageSource | undefined {
  if (kind === 'tool') {
    const result = valueSource(a, ['gen_ai.tool.call.result', 'gcp.vertex.agent.tool_response', 'ai.toolCall.result', 'output.value', 'gen_ai.output', 'output'], 'tool');
    if (result) return result;
  }
  const direct = valueSource(a, ['gen_ai.output.messages']);
  if (direct) return direct;
  if (hasPrefix(a, 'llm.output_messages.')) return { form: 'flat', scheme: 'openinference', prefix: 'llm.output_messages' };
  if (hasPrefix(a, 'gen_ai.completion.')) return { form: 'flat', scheme: 'genai', prefix: 'gen_ai.completion' };
  const fromEvents = eventMessages(events, true);
  if (fromEvents) return fromEvents;
  return valueSource(a, ['output.value', 'ai.response.text', 'gen_ai.output', 'gcp.vertex.agent.llm_response', 'traceloop.entity.output', 'gen_ai.completion'], 'assistant');
}

const EVENT_ROLES: Record<string, string> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
  'gen_ai.choice': 'assistant',
};

/**
 * The oldest event form (OpenLit): one `gen_ai.content.prompt` event whose `gen_ai.prompt`
 * attribute holds the whole prompt, and one `gen_ai.content.completion` with `gen_ai.completion`.
 */
function contentEvent(events: readonly SpanEvent[], output: boolean): MessageSource | undefined {
  const [name, key, role] = output ? ['gen_ai.content.completion', 'gen_ai.completion', 'assistant'] : ['gen_ai.content.prompt', 'gen_ai.prompt', 'user'];
  const event = events.find((e) => e.name === name && e.attributes[key] !== undefined && e.attributes[key] !== null && e.attributes[key] !== '');
  return event ? { form: 'value', value: event.attributes[key], role } : undefined;
}

/** The older event form of GenAI messages (span events or log records linked by span id). */
function eventMessages(events: readonly SpanEvent[], output: boolean): MessageSource | undefined {
  const content = contentEvent(events, output);
  if (content) return content;
  const chosen = events.filter((e) => Object.hasOwn(EVENT_ROLES, e.name) && (e.name === 'gen_ai.choice') === output);
  if (chosen.length === 0) return undefined;
  const messages = chosen.map((e) => {
    const body = e.attributes.body ?? e.attributes.content ?? e.attributes['gen_ai.event.content'] ?? e.attributes.message;
    const role = text(e.attributes.role) ?? EVENT_ROLES[e.name];
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      const b = body as Record<string, unknown>;
      return { role, ...b, content: b.content ?? (b.message as Record<string, unknown> | undefined)?.content ?? '' };
    }
    return { role, content: body ?? '' };
  });
  return { form: 'value', value: messages };
}

/** Why the span failed: status message, `error.type`, or its exception event. */
export function spanError(span: FoldedSpan): string | null {
  const a = span.attributes;
  const exception = span.events.find((e) => e.name === 'exception');
  const exceptionText = exception ? firstText(exception.attributes, ['exception.message', 'exception.type']) : null;
  const errorType = text(a['error.type']);
  if (!span.failed && errorType === undefined) return null;
  return text(span.statusMessage) ?? exceptionText ?? (errorType !== undefined ? `error.type ${errorType}` : 'error');
}

/** The step for one folded span. */
export function spanToStep(span: FoldedSpan): StepDraft {
  const a = span.attributes;
  const kind = spanKind(span.name, a);
  const step: StepDraft = {
    id: span.id,
    parent: span.parent,
    name: span.name,
    kind,
    start: span.start,
    end: span.end,
    model: kind === 'llm' || kind === 'agent' ? firstText(a, ['gen_ai.request.model', 'llm.model_name', 'ai.model.id', 'gen_ai.response.model', 'ai.response.model']) : null,
    usage: kind === 'llm' ? spanUsage(a, span.path) : null,
    error: spanError(span),
    attributes: a,
  };
  const agent = firstText(a, ['gen_ai.agent.name']);
  if (agent !== null) step.agent = agent;
  const input = spanInput(kind, a, span.events);
  const output = spanOutput(kind, a, span.events);
  if (input) step.input = input;
  if (output) step.output = output;
  return step;
}
