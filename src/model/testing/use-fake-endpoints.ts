import { afterEach } from 'vitest';
import { startFakeEndpoint, type FakeEndpoint } from './fake-endpoint.ts';

export type StartFake = (options?: Parameters<typeof startFakeEndpoint>[0]) => Promise<FakeEndpoint>;

/**
 * For a test file: a function that starts a fake endpoint, and a hook that closes every endpoint it
 * started after each test, so no server outlives the test that opened it.
 */
export function useFakeEndpoints(): StartFake {
  const endpoints: FakeEndpoint[] = [];
  afterEach(async () => {
    await Promise.all(endpoints.splice(0).map((e) => e.close()));
  });
  return async (options = {}) => {
    const endpoint = await startFakeEndpoint(options);
    endpoints.push(endpoint);
    return endpoint;
  };
}
