import type { EndpointConfig } from './endpoint.ts';
import { maskKey } from './endpoint-error.ts';
import { readCapped } from './read-capped.ts';

const PROBE_TIMEOUT_MS = 10_000;
const PROBE_MAX_BYTES = 1024 * 1024;

/**
 * What an endpoint lists as the model behind `modelId`, as one line, or null when it lists nothing
 * telling: llama.cpp's `GET /props` `model_path` (asked only when `GET /v1/models` looks like
 * llama-server's: `owned_by: "llamacpp"` or a `meta`) and the `meta` of its `GET /v1/models` entry
 * (parameters, size, vocabulary). Other servers' lists carry no such fields (their `created` is
 * often the time of asking), so for them the answers' own `model` field is what is compared.
 * Any failure (no such route, CORS, a time-out) is null: the probe never fails a run.
 */
export async function probeServedIdentity(config: EndpointConfig, modelId: string, fetchImpl: typeof fetch): Promise<string | null> {
  const headers: Record<string, string> = config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {};
  const models = await getJson(`${config.baseUrl}/models`, headers, fetchImpl);
  const list = isRecord(models) && Array.isArray(models.data) ? models.data.filter(isRecord) : [];
  // `/props` is llama.cpp's own route: asked only of a server whose list says it is one, since
  // elsewhere its 404 is a red error in the page's console on every run.
  const llamaLike = list.some((m) => m.owned_by === 'llamacpp' || isRecord(m.meta));
  const props = llamaLike ? await getJson(`${config.baseUrl.replace(/\/v1$/, '')}/props`, headers, fetchImpl) : null;
  const parts: string[] = [];
  const path = isRecord(props) && typeof props.model_path === 'string' ? props.model_path : null;
  if (path) parts.push(`model_path ${path}`);
  // llama-server lists its one model under its path or --alias.
  const entry = list.find((m) => m.id === modelId) ?? (list.length === 1 ? list[0] : undefined);
  if (entry && isRecord(entry.meta)) {
    const meta = entry.meta;
    parts.push(`meta ${Object.keys(meta).sort().filter((k) => ['string', 'number', 'boolean'].includes(typeof meta[k])).map((k) => `${k}=${String(meta[k])}`).join(',')}`);
  }
  return parts.length > 0 ? maskKey(parts.join('; '), config.apiKey).slice(0, 1000) : null;
}

async function getJson(url: string, headers: Record<string, string>, fetchImpl: typeof fetch): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  try {
    const response = await fetchImpl(url, { headers, signal: controller.signal, redirect: 'manual' });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      return null;
    }
    const text = await readCapped(response, PROBE_MAX_BYTES);
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
