/**
 * The page's model host and a runner over it as the tests use them: the Model panel's connection
 * (nothing remembered unless a test installed localStorage), the response store over whatever
 * IndexedDB the test installed (fake-indexeddb), and the endpoint wait wired as src/app/page.ts
 * wires it.
 */
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, vi } from 'vitest';
import { requestKey, type ChatRequest } from '../../engine/model-call.ts';
import { EndpointWait } from '../model/endpoint-wait.svelte.ts';
import { ModelConnection } from '../model/model-connection.svelte.ts';
import { PageModelHost } from '../model/page-model-host.svelte.ts';
import { ResponseStore } from '../model/response-store.ts';
import { AnalysisRunner } from '../state/analysis-runner.svelte.ts';

export function testModelHost(): PageModelHost {
  return new PageModelHost(new ModelConnection(), new ResponseStore());
}

/** A runner with its own model host and endpoint wait (the rest as the test gives). */
export function testRunner(workers: number, deps: Omit<ConstructorParameters<typeof AnalysisRunner>[1], 'model' | 'endpointWait'>): AnalysisRunner {
  const model = testModelHost();
  let runner: AnalysisRunner | null = null;
  const endpointWait = new EndpointWait(() => void runner?.analyze(), model);
  runner = new AnalysisRunner(workers, { ...deps, model, endpointWait });
  return runner;
}

/** Each test of the suite on real timers (the loopback endpoints answer in real time) and a fresh IndexedDB: the response store starts empty. */
export function useFreshResponseStore(): void {
  beforeEach(() => {
    vi.useRealTimers();
    vi.stubGlobal('indexedDB', new IDBFactory());
  });
}

/** A case's one chat request (the text as the user's message), as a job resolves it. */
export function askOf(text: string, step = 'answer', caseId = text, model = 'fake-model') {
  const request: ChatRequest = { model, messages: [{ role: 'user', content: text }] };
  return { key: requestKey(request), request, step, caseId };
}
