import type { CaseDef } from '../../engine/types.ts';
import { oneStepSource } from '../../sandbox/testing/one-step.ts';

/** For waiting-round tests of both pools: one step asking `n` requests in a chain, each quoting the answer before it. */
export const chainSource = (n: number): string =>
  oneStepSource(`let text = ''; for (let i = 0; i < ${n}; i++) text = llm.chat({ messages: [{ role: 'user', content: inputs.question + i + ' ' + text }], temperature: 0 }).text; return text;`).replace(
    'run: (inputs, noise) =>',
    'run: (inputs, noise, { llm }) =>',
  );

/** A case of chainSource's definition. */
export const question = (id: string, text: string): CaseDef => ({ id, inputs: { question: text, doc: null } });
