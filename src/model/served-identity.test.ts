import { describe, expect, it } from 'vitest';
import { endpointConfig } from './endpoint.ts';
import { probeServedIdentity } from './served-identity.ts';

/** A server answering GET routes from `routes` (404 otherwise, as real servers do), recording what was asked. */
function server(routes: Record<string, unknown>) {
  const asked: string[] = [];
  const fetchImpl = (async (url: string) => {
    const path = new URL(url).pathname;
    asked.push(path);
    const body = routes[path];
    return body === undefined ? new Response(JSON.stringify({ error: { message: 'Not Found' } }), { status: 404 }) : new Response(JSON.stringify(body), { status: 200 });
  }) as typeof fetch;
  return { asked, fetchImpl };
}

const config = endpointConfig({ baseUrl: 'http://127.0.0.1:8080/v1', models: { default: 'm' } });

describe('the served model probe', () => {
  it('asks llama-server (owned_by llamacpp, meta) for /props and names its model file', async () => {
    const llama = server({
      '/v1/models': { object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'llamacpp', created: 1, meta: { n_params: 260000, size: 1185376, n_vocab: 512 } }] },
      '/props': { model_path: '/models/stories260K.gguf', total_slots: 1 },
    });
    expect(await probeServedIdentity(config, 'm', llama.fetchImpl)).toBe('model_path /models/stories260K.gguf; meta n_params=260000,n_vocab=512,size=1185376');
    expect(llama.asked).toEqual(['/v1/models', '/props']);
  });

  it('does not ask other servers for /props, llama.cpp\'s own route (its 404 is a console error in the page)', async () => {
    const ollama = server({ '/v1/models': { object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'library', created: 1 }] } });
    expect(await probeServedIdentity(config, 'm', ollama.fetchImpl)).toBeNull();
    expect(ollama.asked).toEqual(['/v1/models']);
    // A proxy that lists no models: nothing more is asked either.
    const proxy = server({});
    expect(await probeServedIdentity(config, 'm', proxy.fetchImpl)).toBeNull();
    expect(proxy.asked).toEqual(['/v1/models']);
  });
});
