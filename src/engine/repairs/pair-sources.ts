import type { AttributedCaseResult, LlmMessage } from '../types.ts';
import type { ChatRequest, ModelResponse } from '../model-call.ts';
import { CHOOSE_INSTRUCTION, chooseLetters } from '../choose-answer.ts';
import { ownValue } from '../named-record.ts';
import { labelLogits } from '../step-llm.ts';
import type { PairSources } from './training-pairs.ts';

/** A cached model response with the request that produced it (the command's cache, the page's response store). */
export interface PairRequestEntry {
  key: string;
  request: ChatRequest;
  response: ModelResponse;
}

/** What a case's pairs are read from, besides its result. */
export interface CasePairInputs {
  /** The case's inputs. */
  caseInputs: Readonly<Record<string, unknown>>;
  /** The step's declared input names, when the definition is known. */
  stepInputs(step: string): readonly string[] | undefined;
  fixOf(step: string): string | null;
  /** Cached responses; only those the result names in `modelKeys` are used. */
  responses: readonly PairRequestEntry[];
}

/**
 * Where a case's training pairs come from, one rule for the command and the page so their pairs
 * files agree: the fix each step used, its factual inputs, and a model step's request messages.
 */
export function casePairSources(r: AttributedCaseResult, o: CasePairInputs): PairSources {
  const factual = r.factualOutputs ?? {};
  const keys = new Set(r.modelKeys ?? []);
  const requests = o.responses.filter((e) => keys.has(e.key));
  return {
    fixOf: o.fixOf,
    inputsOf: (step) => {
      // Without the definition, everything the step could have read: the case inputs and earlier outputs.
      const names = o.stepInputs(step) ?? [...Object.keys(o.caseInputs), ...r.players.slice(0, r.players.indexOf(step))];
      const inputs: Record<string, unknown> = {};
      for (const name of names) {
        const value = Object.hasOwn(factual, name) && r.players.includes(name) ? ownValue(factual, name) : ownValue(o.caseInputs, name);
        Object.defineProperty(inputs, name, { value, enumerable: true, writable: true, configurable: true });
      }
      return inputs;
    },
    requestOf: (_step, output) => {
      const entry = requestOfOutput(requests, output);
      return entry ? entry.request.messages.map((m): LlmMessage => ({ role: m.role, content: m.content })) : null;
    },
  };
}

/**
 * The cached request whose answer is a step's output as run: a chat request whose text is the
 * output, else a choose request listing the output as one of its options (a choose response is
 * only the option's letter; the step returns the option itself).
 */
export function requestOfOutput(requests: readonly PairRequestEntry[], output: string): PairRequestEntry | null {
  const chat = requests.find((e) => chooseLetters(e.request).length === 0 && e.response.text === output);
  if (chat) return chat;
  // A fix's choose request may list the same options: the factual one is taken to be the request
  // that gives the output the highest probability (a fix is written to pick another option).
  let best: PairRequestEntry | null = null;
  let bestShare = -Infinity;
  for (const e of requests) {
    const options = chooseOptions(e.request);
    if (!options.includes(output)) continue;
    const share = optionShare(e, options, output);
    if (share > bestShare) [best, bestShare] = [e, share];
  }
  return best;
}

/** The probability a choose response gives one of its options (softmax of the options' logits), or -Infinity when unreadable. */
function optionShare(e: PairRequestEntry, options: readonly string[], output: string): number {
  let logits: Record<string, number>;
  try {
    logits = labelLogits(e.response, options, '');
  } catch {
    return -Infinity;
  }
  const values = options.map((o) => ownValue(logits, o) ?? -Infinity);
  const max = Math.max(...values);
  const total = values.reduce((sum, v) => sum + Math.exp(v - max), 0);
  return Math.exp((ownValue(logits, output) ?? -Infinity) - max) / total;
}

/** The options a choose request lists, in letter order (its last message ends with them, one "A. option" a line). */
function chooseOptions(request: ChatRequest): string[] {
  const letters = chooseLetters(request);
  if (letters.length === 0) return [];
  const last = request.messages[request.messages.length - 1].content;
  const listing = last.slice(last.lastIndexOf(CHOOSE_INSTRUCTION) + CHOOSE_INSTRUCTION.length);
  // Split before each next letter's "\nB. ", so an option may itself hold a newline.
  const options: string[] = [];
  let rest = listing;
  letters.forEach((l, k) => {
    const start = rest.indexOf(`\n${l}. `);
    if (start < 0) return;
    rest = rest.slice(start + l.length + 3);
    const next = k + 1 < letters.length ? rest.indexOf(`\n${letters[k + 1]}. `) : -1;
    options.push(next < 0 ? rest : rest.slice(0, next));
    if (next >= 0) rest = rest.slice(next);
  });
  return options;
}
