import { canonicalize } from './canonical.ts';

/**
 * Step outputs shared across the cases of one study (the `shareSteps` setting, and the bandit batch
 * stop): an execution that drew no noise is a function of its step, variant and inputs alone (steps
 * must be pure, as the per-case step cache already assumes), so its output is reused by any later
 * case whose inputs to that step coincide, in any world. Executions that drew noise depend on the
 * case's world and are never shared. A hit costs nothing and counts as no execution.
 *
 * Only replays that neither abduct (posterior factual runs, whose choices come from the case's
 * record) nor ask a model nor record choices use it: see Replayer.
 */
export class SharedStepCache {
  /** Entries kept at most; past it new outputs are no longer added (hits go on). */
  static maxEntries = 200_000;
  private readonly outputs = new Map<string, unknown>();
  hits = 0;

  /** The key of one execution: step, variant (with its fix's name) and the canonical text of its inputs. */
  keyOf(step: number, variantLabel: string, inputs: Readonly<Record<string, unknown>>): string | null {
    try {
      return `${step}\u0000${variantLabel}\u0000${canonicalize(inputs)}`;
    } catch {
      // Inputs that are not plain data cannot be compared: that execution is simply not shared.
      return null;
    }
  }

  get(key: string): { value: unknown } | undefined {
    if (!this.outputs.has(key)) return undefined;
    this.hits++;
    return { value: this.outputs.get(key) };
  }

  /** Keep an execution's output (deep-frozen already) when it drew no noise. */
  set(key: string, value: unknown): void {
    if (this.outputs.size < SharedStepCache.maxEntries) this.outputs.set(key, value);
  }

  get size(): number {
    return this.outputs.size;
  }
}
