/**
 * The few browser globals the page's state classes touch (address, history, title, page
 * visibility, animation frames, fetch of files next to the build), faked in memory for tests run
 * in Node: `installFakeBrowser` stubs them with vitest (undone by `vi.unstubAllGlobals()`).
 * History keeps its entries, so a test can go Back and see a `popstate`; the files served are the
 * test's own.
 */
import { vi } from 'vitest';

export interface FakeBrowser {
  /** The history entries' addresses (the current one is `entries[index]`). */
  readonly entries: string[];
  readonly index: number;
  readonly document: EventTarget & { title: string; visibilityState: 'visible' | 'hidden'; readonly baseURI: string };
  readonly window: EventTarget;
  /** Files served by `fetch`, by path (e.g. `/demos/x.trace.json`). */
  readonly files: Map<string, { body: string; contentType?: string }>;
  /** Addresses fetched, in order. */
  readonly fetched: string[];
  /** Goes back one entry and fires `popstate`, as the Back button does. */
  back(): void;
  /** Hides the page (another tab in front), firing `visibilitychange`. */
  hide(): void;
}

export function installFakeBrowser(address = 'http://localhost/'): FakeBrowser {
  const entries = [address];
  let index = 0;
  const url = () => new URL(entries[index]);
  const location = {
    get href() {
      return url().href;
    },
    get pathname() {
      return url().pathname;
    },
    get search() {
      return url().search;
    },
    get hash() {
      return url().hash;
    },
    get origin() {
      return url().origin;
    },
  };
  const history = {
    pushState(_data: unknown, _unused: string, to: string) {
      entries.splice(index + 1, entries.length, new URL(to, entries[index]).href);
      index++;
    },
    replaceState(_data: unknown, _unused: string, to: string) {
      entries[index] = new URL(to, entries[index]).href;
    },
  };
  const window = new EventTarget();
  const document = Object.assign(new EventTarget(), { title: '', visibilityState: 'visible' as 'visible' | 'hidden' });
  Object.defineProperty(document, 'baseURI', { get: () => url().href });
  const files = new Map<string, { body: string; contentType?: string }>();
  const fetched: string[] = [];
  const fetch = async (input: string | URL): Promise<Response> => {
    const target = new URL(String(input), entries[index]);
    fetched.push(target.href);
    const file = target.origin === url().origin ? files.get(target.pathname) : undefined;
    if (!file) return new Response('not found', { status: 404, statusText: 'Not Found' });
    return new Response(file.body, { status: 200, headers: { 'content-type': file.contentType ?? 'application/json' } });
  };
  vi.stubGlobal('location', location);
  vi.stubGlobal('history', history);
  vi.stubGlobal('window', window);
  vi.stubGlobal('document', document);
  vi.stubGlobal('fetch', fetch);
  // A frame is a macrotask of its own (never a fake-timer one): polling each frame must let I/O run.
  vi.stubGlobal('requestAnimationFrame', (callback: (time: number) => void) => setImmediate(() => callback(performance.now())));
  return {
    entries,
    get index() {
      return index;
    },
    document: document as FakeBrowser['document'],
    window,
    files,
    fetched,
    back() {
      if (index === 0) return;
      index--;
      window.dispatchEvent(new Event('popstate'));
    },
    hide() {
      document.visibilityState = 'hidden';
      document.dispatchEvent(new Event('visibilitychange'));
    },
  };
}
