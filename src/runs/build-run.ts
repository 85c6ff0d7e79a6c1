import type { RecordedRun, RecordedStep, RunLabel, RunStatus, StepDraft } from './types.ts';

export interface RunDraft {
  id: string;
  name?: string;
  steps: StepDraft[];
  /** The status the format records for the whole run (runtape run_end, LangSmith status); else inferred. */
  status?: RunStatus;
  label?: RunLabel;
  group?: string;
}

function compareNullable(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

/** Siblings: by start, then end, then the format's explicit order, then id (FORMATS.md trap 6). */
function compareSiblings(a: StepDraft, b: StepDraft): number {
  return (
    compareNullable(a.start, b.start) ||
    compareNullable(a.end, b.end) ||
    compareNullable(a.order ?? null, b.order ?? null) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * Builds a run's tree from its steps: execution order (depth first, siblings sorted), orphans
 * kept as roots, cycles broken (never followed), and the tokens of one model call wrapped in
 * several LLM spans counted once, on the innermost span that carries them: the provider's own
 * count, not a framework's estimate around it (FORMATS.md §2).
 * Steps with a repeated id keep the first; later ones get a suffix so every id stays unique.
 */
export function buildRun(draft: RunDraft): RecordedRun {
  const byId = new Map<string, StepDraft>();
  // The next suffix to try per repeated id, so 20 000 copies of one id cost linear time, not quadratic.
  const nextSuffix = new Map<string, number>();
  for (const step of draft.steps) {
    let id = step.id;
    if (byId.has(id)) {
      let n = nextSuffix.get(step.id) ?? 2;
      while (byId.has(`${step.id}#${n}`)) n++;
      id = `${step.id}#${n}`;
      nextSuffix.set(step.id, n + 1);
    }
    byId.set(id, id === step.id ? step : { ...step, id });
  }
  const children = new Map<string, StepDraft[]>();
  const roots: StepDraft[] = [];
  const missing = new Set<string>();
  for (const step of byId.values()) {
    if (step.parent === null || step.parent === step.id) {
      roots.push(step);
    } else if (!byId.has(step.parent)) {
      missing.add(step.id);
      roots.push(step);
    } else {
      const list = children.get(step.parent);
      if (list) list.push(step);
      else children.set(step.parent, [step]);
    }
  }
  for (const list of children.values()) list.sort(compareSiblings);
  roots.sort(compareSiblings);

  const ordered: RecordedStep[] = [];
  const visited = new Set<string>();
  const visit = (root: StepDraft, detached: RecordedStep['detached']): void => {
    // Iterative depth-first walk: a deep chain of spans cannot overflow the stack.
    const stack: { step: StepDraft; depth: number; detached?: RecordedStep['detached'] }[] = [{ step: root, depth: 0, detached }];
    while (stack.length > 0) {
      const { step, depth, detached: note } = stack.pop()!;
      if (visited.has(step.id)) continue;
      visited.add(step.id);
      const built: RecordedStep = { ...step, depth, parent: depth === 0 ? null : step.parent };
      if (note) built.detached = note;
      ordered.push(built);
      const kids = children.get(step.id) ?? [];
      for (let i = kids.length - 1; i >= 0; i--) if (!visited.has(kids[i].id)) stack.push({ step: kids[i], depth: depth + 1 });
    }
  };
  for (const root of roots) {
    const note = missing.has(root.id) && root.parent !== null ? { parent: root.parent, reason: 'missing' as const } : undefined;
    visit(root, note);
  }
  // What is left is only reachable through a cycle: cut each cycle at its earliest step.
  const rest = [...byId.values()].filter((s) => !visited.has(s.id)).sort(compareSiblings);
  for (const step of rest) if (!visited.has(step.id)) visit(step, { parent: step.parent ?? '', reason: 'cycle' });

  countWrappedTokensOnce(ordered);
  return {
    id: draft.id,
    name: draft.name ?? ordered[0]?.name ?? draft.id,
    status: draft.status ?? inferStatus(ordered),
    ...(draft.label ? { label: draft.label } : {}),
    ...(draft.group ? { group: draft.group } : {}),
    steps: ordered,
  };
}

/**
 * One model call wrapped in several LLM steps (a framework's `invoke` around the provider's `chat`)
 * counts its tokens once, on the innermost LLM step that carries them: the outer copies are the
 * framework's own estimates or sums and move to `wrappedUsage`. Steps are in depth-first order,
 * so walking them backwards visits every descendant before its ancestor: one pass, linear.
 */
function countWrappedTokensOnce(steps: RecordedStep[]): void {
  const hasInnerUsage = new Set<string>();
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    const inner = hasInnerUsage.has(step.id);
    if (step.kind === 'llm' && step.usage !== null && inner) {
      step.wrappedUsage = step.usage;
      step.usage = null;
    }
    const carries = inner || (step.kind === 'llm' && (step.usage !== null || step.wrappedUsage !== undefined));
    if (carries && step.parent !== null) hasInnerUsage.add(step.parent);
  }
}

/**
 * Without a recorded status: failed when a root step failed, ok when no step failed and every
 * step ended, unknown otherwise (an inner failure the run may have recovered from, or open steps).
 */
function inferStatus(steps: readonly RecordedStep[]): RunStatus {
  if (steps.some((s) => s.depth === 0 && s.error !== null)) return 'error';
  if (steps.every((s) => s.error === null) && steps.every((s) => s.start === null || s.end !== null)) return 'ok';
  return 'unknown';
}

/** Sum of the tokens the run's steps carry (wrapped copies are already dropped). */
export function runUsage(run: RecordedRun): { input: number; output: number } {
  let input = 0;
  let output = 0;
  for (const s of run.steps) {
    if (s.usage) {
      input += s.usage.input;
      output += s.usage.output;
    }
  }
  return { input, output };
}
