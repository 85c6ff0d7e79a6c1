import { NO_USAGE, type ModelAnswer, type ModelUsage, type PendingRequest } from '../../engine/index.ts';
import { toyAnswer } from '../../engine/testing/toy-model.ts';
import type { ModelResolver } from '../contract.ts';

/**
 * A model host for pool tests: answers with the toy model (after `delayMs`, and after `before`,
 * which may fail or hold the fetch), sending each distinct request once, as the real host's
 * dedupe does, recording what it sent and charging each request to its case.
 */
export class CountingResolver implements ModelResolver {
  readonly sent: string[] = [];
  private readonly known = new Map<string, ModelAnswer>();
  private readonly perCase = new Map<string, ModelUsage>();
  constructor(private readonly delayMs = 0, private readonly before?: (sent: number) => Promise<void>) {}
  async resolve(requests: (PendingRequest & { caseId: string })[]): Promise<Map<string, ModelAnswer>> {
    await this.before?.(this.sent.length);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const out = new Map<string, ModelAnswer>();
    for (const r of requests) {
      let answer = this.known.get(r.key);
      if (!answer) {
        this.sent.push(r.key);
        answer = toyAnswer(r.request);
        this.known.set(r.key, answer);
        const u = { ...(this.perCase.get(r.caseId) ?? NO_USAGE) };
        u.requests++;
        u.inputTokens += answer.usage?.input ?? 0;
        this.perCase.set(r.caseId, u);
      }
      out.set(r.key, answer);
    }
    return out;
  }
  usage(caseId: string): ModelUsage {
    return this.perCase.get(caseId) ?? { ...NO_USAGE };
  }
}
