/**
 * The page's model host as the tests use it: the Model panel's connection (nothing remembered
 * unless a test installed localStorage) and the response store over whatever IndexedDB the test
 * installed (fake-indexeddb).
 */
import { ModelConnection } from '../model/model-connection.svelte.ts';
import { PageModelHost } from '../model/page-model-host.svelte.ts';
import { ResponseStore } from '../model/response-store.ts';

export function testModelHost(): PageModelHost {
  return new PageModelHost(new ModelConnection(), new ResponseStore());
}
