/**
 * A real model as an OpenAI-compatible loopback endpoint, for `npm run test:real-model`: the GGUF
 * is loaded by node-llama-cpp (installed on demand outside the project, see run.ts) and served on
 * 127.0.0.1 with `POST /v1/chat/completions` (temperature, seed, max_tokens, stop, logprobs and
 * top_logprobs from the first generated token's next-token probabilities), `GET /v1/models` (with
 * llama.cpp's `meta`) and `GET /props` (`model_path`), one request at a time as a one-slot
 * llama-server. The model has no chat template: messages are rendered as "role: content" lines.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { statSync } from 'node:fs';

import type { LlamaContext, LlamaModel, LlamaSequence } from '../../src/model/index.node.ts';

export interface RealEndpoint {
  url: string;
  modelId: string;
  /** Chat requests answered so far. */
  readonly answered: number;
  close(): Promise<void>;
}

interface ChatBody {
  model?: unknown;
  messages?: { role?: unknown; content?: unknown }[];
  temperature?: unknown;
  max_tokens?: unknown;
  stop?: unknown;
  seed?: unknown;
  logprobs?: unknown;
  top_logprobs?: unknown;
}

export async function startRealEndpoint(moduleDir: string, modelPath: string, modelId = 'stories260K', port = 0): Promise<RealEndpoint> {
  const llamaCpp = (await import(`${moduleDir}/node_modules/node-llama-cpp/dist/index.js`)) as { getLlama(options: { gpu: false; build: 'never'; logLevel?: string }): Promise<{ loadModel(options: { modelPath: string }): Promise<LlamaModel>; dispose(): Promise<void> }> };
  const llama = await llamaCpp.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath });
  // One thread: with llama.cpp's default (every core) evaluations stalled on a small shared machine.
  const context = await model.createContext({ contextSize: 512, threads: 1 });
  const sequence = context.getSequence();
  const size = statSync(modelPath).size;
  let answered = 0;
  // One slot: requests wait for each other, as on a one-slot CPU llama-server.
  let slot: Promise<unknown> = Promise.resolve();

  async function complete(body: ChatBody): Promise<unknown> {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const prompt = `${messages.map((m) => `${String(m.role)}: ${String(m.content)}`).join('\n')}\nassistant:`;
    const bos = model.tokens.bos;
    const tokens = [...(bos === null ? [] : [bos]), ...model.tokenize(prompt)].slice(-400);
    const maxTokens = typeof body.max_tokens === 'number' ? Math.min(body.max_tokens, 96) : 48;
    const temperature = typeof body.temperature === 'number' ? body.temperature : 1;
    const seed = typeof body.seed === 'number' ? body.seed : 0;
    const wantTop = body.logprobs === true ? Math.min(typeof body.top_logprobs === 'number' ? body.top_logprobs : 0, 20) : 0;
    const stops = Array.isArray(body.stop) ? body.stop.filter((s): s is string => typeof s === 'string') : [];
    await sequence.clearHistory();
    const out: number[] = [];
    let first: { token: string; logprob: number; top_logprobs: { token: string; logprob: number }[] } | null = null;
    let finish = 'length';
    let text = '';
    const generator = sequence.evaluateWithMetadata(tokens, { probabilities: body.logprobs === true }, { temperature, seed });
    for await (const step of generator) {
      if (first === null && body.logprobs === true && step.probabilities) {
        const top = [...step.probabilities.entries()].slice(0, wantTop).map(([id, p]) => ({ token: model.detokenize([id]), logprob: Math.log(p) }));
        first = { token: model.detokenize([step.token]), logprob: Math.log(step.probabilities.get(step.token) ?? 1e-12), top_logprobs: top };
      }
      if (model.isEogToken(step.token)) {
        finish = 'stop';
        break;
      }
      out.push(step.token);
      text = model.detokenize(out);
      const hit = stops.map((s) => text.indexOf(s)).filter((k) => k >= 0);
      if (hit.length > 0) {
        text = text.slice(0, Math.min(...hit));
        finish = 'stop';
        break;
      }
      if (out.length >= maxTokens) break;
    }
    answered++;
    return {
      id: `chatcmpl-real-${answered}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: modelId,
      system_fingerprint: 'node-llama-cpp-3.21.1',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finish, logprobs: first ? { content: [first] } : null }],
      usage: { prompt_tokens: tokens.length, completion_tokens: out.length, total_tokens: tokens.length + out.length },
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').replace(/\?.*$/, '');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS', 'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept' });
      res.end();
      return;
    }
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      return send(res, 200, { object: 'list', data: [{ id: modelId, object: 'model', owned_by: 'llamacpp', created: Math.floor(Date.now() / 1000), meta: { size, n_vocab: 512 } }] });
    }
    if (req.method === 'GET' && path === '/props') return send(res, 200, { model_path: modelPath, total_slots: 1 });
    if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions')) return send(res, 404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: ChatBody;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
    } catch {
      return send(res, 400, { error: { code: 400, message: 'the body is not JSON', type: 'invalid_request_error' } });
    }
    if (body.model !== modelId) return send(res, 404, { error: { code: 404, message: `model not found: ${String(body.model)}`, type: 'not_found_error' } });
    const run = slot.then(() => complete(body));
    slot = run.catch(() => {});
    send(res, 200, await run);
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { code: 500, message: String(error), type: 'server_error' } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/v1`,
    modelId,
    get answered() {
      return answered;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Access-Control-Allow-Origin': '*' });
  res.end(text);
}
