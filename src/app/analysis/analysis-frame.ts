/**
 * The page's side of public/analysis-frame.html: analysis workers started in sandboxed frames, each
 * in a process apart from the tab's, so a worker that reaches V8's heap limit takes its frame's
 * process down and the tab goes on (docs/security.md, "Memory in the page").
 *
 * The page fetches the worker's bundle once (its own origin, so the service worker keeps it for
 * offline use) and hands it to the frame as a Blob: a sandboxed frame has an opaque origin, so it
 * can start a worker only from a blob: URL of its own, as a classic script (vite.config.ts builds
 * the workers as single self-contained files for that). The worker's port is transferred to the
 * worker itself, so Comlink calls go from the page to the worker without a relay.
 */
import type { AnalysisWorker } from '../../pool/page/protocol.ts';
import { watchHeartbeat } from '../../pool/page/frame-heartbeat.ts';
import type { WaitChunk } from '../../pool/page/wait-channel.ts';

/** Relative to the page: the build puts public/ files at its root, beside index.html. */
const FRAME_FILE = 'analysis-frame.html';
/** The frame is same-origin and small; this only bounds a host that does not serve it. */
const FRAME_START_MS = 30_000;

let frameWindow: Promise<Window> | null = null;
let workerCode: Promise<Blob> | null = null;
let nextWorker = 0;

/** The analysis frame (1 px, transparent), added once; resolves when its script runs. */
function analysisFrame(): Promise<Window> {
  frameWindow ??= new Promise<Window>((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.src = new URL(FRAME_FILE, document.baseURI).href;
    frame.title = 'agentblame analysis workers';
    // Cross-origin isolated as the page is (its default for a same-origin frame, said outright): its
    // children's workers wait on shared memory for model responses (wait-channel.ts).
    frame.allow = 'cross-origin-isolated';
    // Shown (1 px, transparent) rather than hidden: Chromium runs a hidden frame's children as
    // background work, and the page's analysis was 10-18 % slower so (bench/README.md, "Page
    // speed, fourth round").
    frame.style.cssText = 'position: fixed; left: 0; bottom: 0; width: 1px; height: 1px; border: 0; opacity: 0; pointer-events: none;';
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    const timer = setTimeout(() => {
      removeEventListener('message', ready);
      // The next worker tries a fresh frame: one slow start must not leave the tab without workers.
      frame.remove();
      frameWindow = null;
      reject(new Error(`${FRAME_FILE} did not load within ${FRAME_START_MS / 1000} s (is it deployed beside index.html?)`));
    }, FRAME_START_MS);
    function ready(event: MessageEvent) {
      if (event.source !== frame.contentWindow || (event.data as { agentblameFrameReady?: unknown } | null)?.agentblameFrameReady !== true) return;
      clearTimeout(timer);
      removeEventListener('message', ready);
      resolve(frame.contentWindow!);
    }
    addEventListener('message', ready);
    document.body.append(frame);
  });
  return frameWindow;
}

/** The worker bundle, fetched once (again by the next worker if that failed: offline before it was cached). */
function analysisWorkerCode(url: string): Promise<Blob> {
  if (workerCode === null) {
    const fetched = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`fetching the worker script ${url} answered ${response.status}`);
      return new Blob([await response.text()], { type: 'text/javascript' });
    });
    fetched.catch(() => (workerCode = null));
    workerCode = fetched;
  }
  return workerCode;
}

/**
 * Starts one analysis worker in a sandboxed child of the analysis frame. Answers at once; calls
 * wait in the port until the worker takes it. `lost` settles if its frame's process crashes or the
 * worker cannot start; terminate removes the child frame, which ends the worker and frees its memory.
 */
export function createFramedWorker(workerUrl: string): AnalysisWorker {
  const id = nextWorker++;
  const calls = new MessageChannel();
  const control = new MessageChannel();
  let terminated = false;
  let lose: (reason: string) => void = () => {};
  const lost = new Promise<string>((resolve) => (lose = resolve));
  const stopHeartbeat = watchHeartbeat(control.port1, (reason) => terminated || lose(reason));
  Promise.all([analysisFrame(), analysisWorkerCode(workerUrl)]).then(
    ([frame, code]) => {
      if (!terminated) frame.postMessage({ agentblameStartWorker: id, code }, location.origin, [calls.port2, control.port2]);
    },
    (error: unknown) => {
      stopHeartbeat();
      if (!terminated) lose(`it could not be started: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  const terminate = () => {
    if (terminated) return;
    terminated = true;
    stopHeartbeat();
    void frameWindow?.then((frame) => frame.postMessage({ agentblameStopWorker: id }, location.origin)).catch(() => {});
    calls.port1.close();
    control.port1.close();
  };
  // The child writes each chunk into the shared memory its worker waits on (wait-channel.ts); a child
  // that has none (not cross-origin isolated) never gets one: its worker does not ask.
  const sendWaitChunk = (chunk: WaitChunk) => {
    if (!terminated) control.port1.postMessage({ agentblameWaitChunk: chunk });
  };
  return Object.assign(calls.port1, { terminate, lost, sendWaitChunk });
}
