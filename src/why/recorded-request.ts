/**
 * What a recorded call sent besides its messages, as the reruns send it again: its sampling
 * parameters and its function definitions, in any format's spelling (runs/request-params.ts).
 */
import { recordedParams, recordedTools, type RecordedStep } from '../runs/index.ts';
import type { HostRerunOptions } from './host-rerun.ts';

export function rerunRequestOf(step: Pick<RecordedStep, 'attributes' | 'input'>): Pick<HostRerunOptions, 'temperature' | 'topP' | 'maxTokens' | 'stop' | 'tools'> {
  const p = recordedParams(step);
  const tools = recordedTools(step);
  return {
    ...(p.temperature !== undefined && { temperature: p.temperature }),
    ...(p.top_p !== undefined && { topP: p.top_p }),
    ...(p.max_tokens !== undefined && { maxTokens: p.max_tokens }),
    ...(p.stop !== undefined && { stop: p.stop }),
    ...(tools && { tools }),
  };
}
