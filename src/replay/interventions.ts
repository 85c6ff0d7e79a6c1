/**
 * Fixes as interventions (Causal Agent Replay's algebra; docs/replay.md, "Fixes"). Spelling, as
 * `--fix TURN=KIND[:ARG]` gives it: `resample`, `action:TEXT`, `observation:TEXT`,
 * `context:system+=TEXT`, `context:drop=K`, `context:replace=K:TEXT`, `policy:ALIAS[@T]`,
 * `repair[:HINT]`.
 */
import type { Intervention } from './types.ts';

/** A fix that cannot be read: the message says which part and what was expected. */
export class InterventionError extends Error {
  override name = 'InterventionError';
}

export const INTERVENTION_KINDS = ['resample', 'action:TEXT', 'observation:TEXT', 'context:system+=TEXT', 'context:drop=K', 'context:replace=K:TEXT', 'policy:ALIAS[@T]', 'repair[:HINT]'];

function messageIndex(text: string, spec: string): number {
  if (!/^\d+$/.test(text)) throw new InterventionError(`"${spec}": expected a message index (a whole number from 0), got "${text}"`);
  return Number(text);
}

/** Reads one fix. Throws InterventionError naming the fix and what was wrong. */
export function parseIntervention(spec: string): Intervention {
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const arg = colon < 0 ? undefined : spec.slice(colon + 1);
  const need = (what: string): string => {
    if (arg === undefined || arg === '') throw new InterventionError(`"${spec}": ${kind} needs ${what} (${kind}:${what.toUpperCase().replace(/ /g, '_')})`);
    return arg;
  };
  switch (kind) {
    case 'resample':
      if (arg !== undefined) throw new InterventionError(`"${spec}": resample takes no argument`);
      return { kind: 'resample' };
    case 'action':
      return { kind: 'action', text: need('text') };
    case 'observation':
      return { kind: 'observation', text: need('text') };
    case 'repair':
      return arg === undefined || arg === '' ? { kind: 'repair' } : { kind: 'repair', hint: arg };
    case 'policy': {
      const v = need('alias');
      const at = v.lastIndexOf('@');
      const alias = at < 0 ? v : v.slice(0, at);
      if (alias === '' || /\s/.test(alias)) throw new InterventionError(`"${spec}": expected policy:ALIAS[@TEMPERATURE] with a model alias, got "${v}"`);
      if (at < 0) return { kind: 'policy', alias };
      const t = v.slice(at + 1);
      const temperature = Number(t);
      if (t.trim() === '' || !Number.isFinite(temperature) || temperature < 0 || temperature > 2) throw new InterventionError(`"${spec}": the temperature after @ must be a number from 0 to 2, got "${t}"`);
      return { kind: 'policy', alias, temperature };
    }
    case 'context': {
      const v = need('edit');
      if (v.startsWith('system+=')) {
        const text = v.slice('system+='.length);
        if (text === '') throw new InterventionError(`"${spec}": context:system+= needs the text to add`);
        return { kind: 'context', op: 'system+=', text };
      }
      if (v.startsWith('drop=')) return { kind: 'context', op: 'drop', index: messageIndex(v.slice(5), spec) };
      if (v.startsWith('replace=')) {
        const rest = v.slice('replace='.length);
        const c = rest.indexOf(':');
        if (c < 0) throw new InterventionError(`"${spec}": expected context:replace=K:TEXT`);
        return { kind: 'context', op: 'replace', index: messageIndex(rest.slice(0, c), spec), text: rest.slice(c + 1) };
      }
      throw new InterventionError(`"${spec}": expected context:system+=TEXT, context:drop=K or context:replace=K:TEXT`);
    }
    default:
      throw new InterventionError(`"${spec}": unknown fix "${kind}" (fixes: ${INTERVENTION_KINDS.join(', ')})`);
  }
}

/** A short name of a list of fixes, as the definition's fix and the tables name it. */
export function interventionsName(fixes: readonly Intervention[]): string {
  return fixes
    .map((f) => {
      switch (f.kind) {
        case 'context':
          return `context:${f.op === 'system+=' ? 'system+=' : f.op === 'drop' ? `drop=${f.index}` : `replace=${f.index}`}`;
        case 'policy':
          return `policy:${f.alias}${f.temperature !== undefined ? `@${f.temperature}` : ''}`;
        default:
          return f.kind;
      }
    })
    .join('+');
}
