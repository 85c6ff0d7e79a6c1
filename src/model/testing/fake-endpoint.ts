import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatRequest, ModelResponse } from '../../engine/model-call.ts';
import { fakeModelAnswer } from './fake-model.ts';

/** Something to go wrong with a request (the fake endpoint's injectable faults). */
export type Fault =
  /**
   * Answer this status with an OpenAI-style error body (`body`: this exact JSON instead, as a named
   * server writes it); `retryAfter` sets the header as given.
   */
  | { kind: 'status'; status: number; message?: string; retryAfter?: string; body?: unknown }
  /** Wait this long before answering normally (a slow endpoint). */
  | { kind: 'delay'; ms: number }
  /** Answer 200 with a body that is not JSON. */
  | { kind: 'malformed' }
  /** Destroy the connection without answering. */
  | { kind: 'reset' }
  /** Answer normally but leave out the log-probabilities. */
  | { kind: 'no-logprobs' }
  /** Answer as a thinking model does: the text and the first token's top tokens open a `<think>` block. */
  | { kind: 'thinking' }
  /** Put the request's Authorization header into the answer (`where`: the text, or a 400 error's message after `pad` characters). */
  | { kind: 'echo-key'; where: 'text' | 'error'; pad?: number }
  /** Redirect with this status to `location` (e.g. another origin). */
  | { kind: 'redirect'; status: number; location: string }
  /** Answer 200 with a body of `bytes` bytes, sent in chunks without a Content-Length. */
  | { kind: 'oversized'; bytes: number }
  /** Answer with `count` top log-probabilities for the first token, whatever was asked. */
  | { kind: 'long-top'; count: number };

/** What the fake lists as the model file behind every id (llama.cpp's `/props` and `/v1/models` meta). */
export interface FakeServedModel {
  modelPath: string;
  nParams: number;
  size: number;
}

export interface FakeEndpointOptions {
  /** Model ids listed by GET /models and accepted by chat requests (default ["fake-model"]). */
  models?: string[];
  /** Latency of every chat answer, in ms (default 0). */
  latencyMs?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`; others get 401. */
  apiKey?: string;
  /** The model (default: the deterministic test model). */
  answer?: (request: ChatRequest) => ModelResponse;
  /** Port (default 0: a free one). */
  port?: number;
  /** Refuse, as Gemma's and Mistral's chat templates under llama-server do, two messages in a row with one role (HTTP 400). */
  strictRoles?: boolean;
  /** Answer one request at a time per slot (a CPU llama-server); a request its client gave up on still holds its slot. */
  slots?: number;
  /** The model file it serves, listed by `/props` and `/v1/models` (default: none, as Ollama and vLLM list none). */
  served?: FakeServedModel;
  /** The `model` field of its answers (default: the id asked for). */
  answerModel?: string;
  /** False: `GET /models` answers 404, as many proxies do (they forward chat requests only). */
  listsModels?: boolean;
}

export interface FakeEndpoint {
  /** Base URL, with `/v1`: `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** Chat request bodies as received, in arrival order (faulty attempts included). */
  requests: ChatRequest[];
  /** Authorization headers as received, in the same order. */
  authorizations: (string | undefined)[];
  /** Chat requests being handled right now, and the most ever at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** A fault for every request from now on (null clears it). */
  setFault(fault: Fault | null): void;
  /** Faults for the next requests, one each, in order (before any global fault). */
  failNext(...faults: Fault[]): void;
  /** A fault for every request whose body satisfies `match` (null clears them all). */
  faultWhen(match: ((request: ChatRequest) => boolean) | null, fault?: Fault): void;
  /** Serve another model file behind the same ids from now on (and report `answerModel` in answers). */
  swapModel(served: FakeServedModel | undefined, answerModel?: string): void;
  /** Requests the fake computed (took a slot and waited out its latency), also those their client gave up on. */
  readonly answered: number;
  close(): Promise<void>;
}

/**
 * A loopback OpenAI-compatible endpoint for tests, the demo and the benchmark, on 127.0.0.1:
 * `POST /v1/chat/completions` (also without `/v1`) answers with the deterministic test model
 * (fake-model.ts) in OpenAI's format, log-probabilities included for `logprobs` requests;
 * `GET /v1/models` lists the model ids. Faults are injected per request or for all.
 */
export async function startFakeEndpoint(options: FakeEndpointOptions = {}): Promise<FakeEndpoint> {
  const models = options.models ?? ['fake-model'];
  const answer = options.answer ?? fakeModelAnswer;
  const latencyMs = options.latencyMs ?? 0;
  const requests: ChatRequest[] = [];
  const authorizations: (string | undefined)[] = [];
  let globalFault: Fault | null = null;
  const queued: Fault[] = [];
  const conditional: { match: (request: ChatRequest) => boolean; fault: Fault }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let answered = 0;
  let served = options.served;
  let answerModel = options.answerModel;
  const slots = options.slots ?? Infinity;
  let busySlots = 0;
  const slotWaiters: (() => void)[] = [];
  const takeSlot = async () => {
    while (busySlots >= slots) await new Promise<void>((resolve) => slotWaiters.push(resolve));
    busySlots++;
  };
  const freeSlot = () => {
    busySlots--;
    slotWaiters.shift()?.();
  };
  const sockets = new Set<import('node:net').Socket>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake endpoint: ${String(error)}` } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').replace(/\?.*$/, '').replace(/^\/v1(?=\/)/, '');
    // The page calls from another origin: answer CORS preflights as Ollama with OLLAMA_ORIGINS=* would.
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    if (req.method === 'GET' && path === '/models') {
      if (!authorised(req)) return unauthorised(res);
      if (options.listsModels === false) return sendJson(res, 404, { error: { message: 'Not Found', type: 'invalid_request_error', code: 'not_found' } });
      const meta = served ? { meta: { n_params: served.nParams, size: served.size, n_vocab: 512 } } : {};
      // Serving a model file, it lists its models as llama-server does (owned_by "llamacpp", with their meta).
      return sendJson(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', owned_by: served ? 'llamacpp' : 'agentblame-tests', created: Date.now(), ...meta })) });
    }
    if (req.method === 'GET' && (req.url ?? '').replace(/\?.*$/, '') === '/props' && served) {
      return sendJson(res, 200, { model_path: served.modelPath, total_slots: Number.isFinite(slots) ? slots : 4 });
    }
    if (req.method !== 'POST' || path !== '/chat/completions') return sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    const text = await readBody(req);
    let request: ChatRequest;
    try {
      request = JSON.parse(text) as ChatRequest;
    } catch {
      return sendJson(res, 400, { error: { message: 'the body is not JSON' } });
    }
    requests.push(request);
    authorizations.push(req.headers.authorization);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let slotTaken = false;
    try {
      const fault = queued.shift() ?? conditional.find((c) => c.match(request))?.fault ?? globalFault;
      if (fault?.kind === 'redirect') {
        res.writeHead(fault.status, { Location: fault.location, 'Content-Length': 0, 'Access-Control-Allow-Origin': '*' });
        res.end();
        return;
      }
      if (Number.isFinite(slots)) {
        await takeSlot();
        slotTaken = true;
      }
      if (fault?.kind === 'delay') await sleep(fault.ms);
      if (latencyMs > 0) await sleep(latencyMs);
      answered++;
      if (fault?.kind === 'reset') {
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'status') {
        if (fault.retryAfter !== undefined) res.setHeader('Retry-After', fault.retryAfter);
        return sendJson(res, fault.status, fault.body ?? { error: { message: fault.message ?? `injected HTTP ${fault.status}`, type: 'fake_fault', code: fault.status } });
      }
      if (!authorised(req)) return unauthorised(res);
      if (!Array.isArray(request.messages) || request.messages.length === 0 || typeof request.model !== 'string') {
        return sendJson(res, 400, { error: { message: "'messages' must be a non-empty array and 'model' a string" } });
      }
      if (options.strictRoles) {
        const k = request.messages.findIndex((m, i) => i > 0 && m.role === request.messages[i - 1].role && m.role !== 'system');
        if (k > 0) {
          // llama.cpp quotes the template's source before its raise_exception's reason.
          const template = "{%- if messages[0]['role'] == 'system' -%}{%- set first_user_prefix = messages[0]['content'][0]['text'] + '\\n\\n' -%}{%- set loop_messages = messages[1:] -%}{%- else -%}{%- set first_user_prefix = \"\" -%}{%- set loop_messages = messages -%}{%- endif -%}{%- for message in loop_messages -%}{%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}";
          return sendJson(res, 400, { error: { code: 400, message: `Jinja Exception: ${template}{{ raise_exception("Conversation roles must alternate user/assistant/user/assistant/...") }}{%- endif -%}`, type: 'invalid_request_error' } });
        }
      }
      if (fault?.kind === 'echo-key' && fault.where === 'error') {
        return sendJson(res, 400, { error: { message: `${'x'.repeat(fault.pad ?? 0)}bad request with header ${req.headers.authorization ?? ''} and more text after it` } });
      }
      if (fault?.kind === 'oversized') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        res.write('{"choices":[{"message":{"content":"');
        while (sent < fault.bytes && !res.destroyed) {
          if (!res.write(chunk)) await new Promise<void>((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
          sent += chunk.length;
        }
        res.end('"}}]}');
        return;
      }
      if (!models.includes(request.model)) return sendJson(res, 404, { error: { message: `The model \`${request.model}\` does not exist.`, type: 'invalid_request_error', code: 'model_not_found' } });
      if (fault?.kind === 'malformed') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"id":"chatcmpl-fake","choices":[{"message":{"content":"trunc');
        return;
      }
      let response = answer(request);
      if (fault?.kind === 'thinking') {
        response = { ...response, text: '<think>\nOkay, the user wants', finish: 'length', topLogprobs: request.logprobs ? [{ token: '<think>', logprob: -0.01 }, { token: 'Okay', logprob: -5.2 }, { token: 'The', logprob: -6.1 }] : undefined };
      }
      if (fault?.kind === 'echo-key' && fault.where === 'text') response = { ...response, text: `${response.text} (you sent ${req.headers.authorization ?? ''})` };
      const body = completionBody(request, response, fault?.kind === 'no-logprobs') as { model: string; choices: { logprobs: { content: { top_logprobs: unknown[] }[] } | null }[] };
      if (answerModel !== undefined) body.model = answerModel;
      if (fault?.kind === 'long-top' && body.choices[0].logprobs) {
        const top = body.choices[0].logprobs.content[0].top_logprobs;
        body.choices[0].logprobs.content[0].top_logprobs = [...top, ...Array.from({ length: Math.max(0, fault.count - top.length) }, (_, k) => ({ token: `filler${k}`, logprob: -30 - k / fault.count }))];
      }
      sendJson(res, 200, body);
    } finally {
      inFlight--;
      if (slotTaken) freeSlot();
    }
  }

  function authorised(req: IncomingMessage): boolean {
    return options.apiKey === undefined || req.headers.authorization === `Bearer ${options.apiKey}`;
  }

  function unauthorised(res: ServerResponse): void {
    sendJson(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    authorizations,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    setFault(fault) {
      globalFault = fault;
    },
    failNext(...faults) {
      queued.push(...faults);
    },
    swapModel(next, model) {
      served = next;
      answerModel = model;
    },
    get answered() {
      return answered;
    },
    faultWhen(match, fault) {
      if (match === null) conditional.length = 0;
      else if (fault) conditional.push({ match, fault });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An OpenAI chat completion body for `response` (logprobs in OpenAI's per-token format). */
function completionBody(request: ChatRequest, response: ModelResponse, dropLogprobs: boolean): unknown {
  const top = request.logprobs && !dropLogprobs && response.topLogprobs ? response.topLogprobs.slice(0, request.top_logprobs ?? 0) : null;
  const first = response.topLogprobs?.find((t) => t.token === response.text);
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model: request.model,
    choices: [
      {
        index: 0,
        // As real servers answer a tool call: `content: null` when there is no text beside it.
        message: { role: 'assistant', content: response.toolCalls && response.text === '' ? null : response.text, ...(response.toolCalls && { tool_calls: response.toolCalls.map((c, k) => ({ id: `call_${k}`, type: 'function', function: { name: c.name, arguments: c.arguments } })) }) },
        finish_reason: response.finish,
        logprobs: top ? { content: [{ token: response.text, logprob: first?.logprob ?? 0, top_logprobs: top }] } : null,
      },
    ],
    usage: { prompt_tokens: response.usage.input, completion_tokens: response.usage.output, total_tokens: response.usage.input + response.usage.output },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Retry-After' });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
