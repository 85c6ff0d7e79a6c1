/**
 * The command's `--model-file FILE.gguf`: the model file run in this process by node-llama-cpp, as
 * a LocalModel (local-model.ts) answering the requests of the file's id, the same requests and
 * cache keys as the page's in-page model. node-llama-cpp (about 730 MB with its prebuilt binaries)
 * is never a dependency of the project: it is looked for where `npm run test:real-model` installs it
 * (~/.cache/agentblame/real-model, or AGENTBLAME_REAL_MODEL_DIR), then beside the project.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, existsSync, openSync, readSync, statSync } from 'node:fs';
import { ggufSizeProblem } from './gguf-check.ts';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChatRequest, ModelResponse } from '../engine/model-call.ts';
import { checkContext, cutAtStop, LOCAL_CONTEXT_TOKENS, localCompletion, localResponse, modelFileId, type LocalModel } from './local-model.ts';

export const NODE_LLAMA_CPP_VERSION = '3.21.1';

/** The few node-llama-cpp calls used here (its types live outside the project's node_modules). */
export interface LlamaModel {
  tokenize(text: string, specialTokens?: boolean): number[];
  /** `lastTokens`: the tokens before, so a leading space is kept as llama-server keeps it. */
  detokenize(tokens: readonly number[], specialTokens?: boolean, lastTokens?: readonly number[]): string;
  isEogToken(token: number): boolean;
  readonly trainContextSize: number;
  readonly tokens: { readonly bos: number | null; readonly shouldPrependBosToken?: boolean };
  createContext(options: { contextSize: number; threads: number; seed?: number }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}
export interface LlamaContext {
  getSequence(): LlamaSequence;
  dispose(): Promise<void>;
}
export interface LlamaSequence {
  clearHistory(): Promise<void>;
  evaluateWithMetadata(tokens: number[], metadata: { probabilities: boolean }, options: { temperature?: number; seed?: number }): AsyncGenerator<{ token: number; probabilities?: Map<number, number> }>;
}
interface NodeLlamaCpp {
  getLlama(options: { gpu: false; build: 'never'; logLevel?: string }): Promise<{ loadModel(options: { modelPath: string }): Promise<LlamaModel>; dispose(): Promise<void> }>;
}

/** Where node-llama-cpp may be installed, first found wins. */
export function nodeLlamaCppDirs(env: Record<string, string | undefined>, projectRoot: string): string[] {
  return [env.AGENTBLAME_REAL_MODEL_DIR ?? join(homedir(), '.cache', 'agentblame', 'real-model'), projectRoot];
}

/** How to install node-llama-cpp, for the error when it is missing. */
export function installHint(dir: string): string {
  return `--model-file runs the model with node-llama-cpp, which is not installed (it is about 730 MB, so never a dependency of the project): install it with
  npm install --prefix ${dir} --ignore-scripts -E node-llama-cpp@${NODE_LLAMA_CPP_VERSION}
(the folder \`npm run test:real-model\` installs it in; AGENTBLAME_REAL_MODEL_DIR names another), or serve the file with llama-server and give --model-url`;
}

/** SHA-256 of a file, read as a stream (model files are large). */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A LocalModel over a GGUF file: its id (`gguf-sha256:<hex>`) is known at once; node-llama-cpp and
 * the weights load on the first request. `close()` frees them.
 */
export async function nodeLlamaModel(file: string, env: Record<string, string | undefined>, projectRoot: string): Promise<LocalModel & { id: string; close(): Promise<void> }> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new Error(`--model-file ${file}: no such file`);
  const head = Buffer.alloc(Math.min(statSync(file).size, 32 * 1024 * 1024));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const problem = ggufSizeProblem(head, statSync(file).size, basename(file));
  if (problem) throw new Error(`--model-file ${file}: ${problem}`);
  const id = modelFileId(await fileSha256(file));
  const name = basename(file);
  let loaded: Promise<{ model: LlamaModel; sequence: LlamaSequence; contextTokens: number; close(): Promise<void> }> | null = null;
  // One request at a time: the context has one sequence.
  let slot: Promise<unknown> = Promise.resolve();

  // Looked for before anything runs: a missing install is one bad-input message, not an error per case.
  const dirs = nodeLlamaCppDirs(env, projectRoot);
  const dir = dirs.find((d) => existsSync(join(d, 'node_modules', 'node-llama-cpp', 'package.json')));
  if (dir === undefined) throw new Error(installHint(dirs[0]));
  const found: string = dir;

  async function load() {
    const llamaCpp = (await import(pathToFileURL(join(found, 'node_modules', 'node-llama-cpp', 'dist', 'index.js')).href)) as NodeLlamaCpp;
    const llama = await llamaCpp.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
    let model: LlamaModel;
    try {
      model = await llama.loadModel({ modelPath: file });
    } catch (error) {
      await llama.dispose();
      throw new Error(`--model-file ${file}: node-llama-cpp could not load it (${error instanceof Error ? error.message : String(error)}); is it a complete GGUF file?`);
    }
    // The page loads every file with this context too (it cannot read the training context before loading).
    const contextTokens = LOCAL_CONTEXT_TOKENS;
    // One thread: with llama.cpp's default (every core) evaluations stalled on a small shared machine.
    const context = await model.createContext({ contextSize: contextTokens, threads: 1 });
    return { model, sequence: context.getSequence(), contextTokens, close: async () => { await context.dispose(); await model.dispose(); await llama.dispose(); } };
  }

  async function complete(request: ChatRequest): Promise<ModelResponse> {
    const c = localCompletion(request);
    const { model, sequence, contextTokens } = await (loaded ??= load());
    const bos = model.tokens.bos;
    // As llama-server (and wllama) tokenize a completion prompt: BOS first, special tokens parsed.
    const tokens = [...(bos === null ? [] : [bos]), ...model.tokenize(c.prompt, true)];
    const maxTokens = checkContext(tokens.length, c.maxTokens, contextTokens);
    await sequence.clearHistory();
    const out: number[] = [];
    let firstTop: { token: string; logprob: number }[] | undefined;
    let finish: 'stop' | 'length' = 'length';
    let text = '';
    for await (const step of sequence.evaluateWithMetadata(tokens, { probabilities: c.topLogprobs > 0 }, { temperature: c.temperature, seed: c.seed })) {
      if (firstTop === undefined && c.topLogprobs > 0 && step.probabilities) {
        firstTop = [...step.probabilities.entries()].slice(0, c.topLogprobs).map(([token, p]) => ({ token: model.detokenize([token], false, tokens), logprob: Math.log(p) }));
      }
      if (model.isEogToken(step.token)) {
        finish = 'stop';
        break;
      }
      out.push(step.token);
      const cut = cutAtStop(model.detokenize(out, false, tokens), c.stop);
      text = cut.text;
      if (cut.stopped) {
        finish = 'stop';
        break;
      }
      if (out.length >= maxTokens) break;
    }
    return localResponse({ text, finish, promptTokens: tokens.length, outputTokens: out.length, firstTop }, c, { model: id, fingerprint: `node-llama-cpp-${NODE_LLAMA_CPP_VERSION}` });
  }

  return {
    id,
    handles: (modelId) => modelId === id,
    describe: () => `the model file ${name}`,
    complete: (request) => {
      const run = slot.then(() => complete(request));
      slot = run.catch(() => {});
      return run;
    },
    close: async () => {
      if (loaded) await (await loaded.catch(() => null))?.close();
    },
  };
}
