// agentblame analysis frame: starts the page's analysis workers, each in a sandboxed child frame.
//
// Chromium runs a dedicated worker in the process of the document that starts it. A child frame
// with sandbox="allow-scripts" (an opaque origin) gets a process of its own, apart from the page,
// so a worker that reaches V8's heap limit crashes that process and never the tab (docs/security.md,
// "Memory in the page"). This frame is same-origin with the page only so that it loads offline (the
// service worker serves it; it never serves an opaque-origin frame) and so that its children inherit
// its Content-Security-Policy (analysis-frame.html): eval for the SES sandbox, blob: workers, no
// network. The page's own policy stays without eval.
//
// Messages, from the page only: { agentblameStartWorker: id, code: Blob } with two ports (the
// worker's, handed on to it, and the child's control port, which answers the page's heartbeat), and
// { agentblameStopWorker: id }, which removes the child, ending its worker. The child also takes
// { agentblameWaitChunk } on its control port: a piece of a model response its worker waits for.
'use strict';

const CHILD_DOCUMENT = `<!doctype html><meta charset="utf-8"><script>${document.getElementById('child-script').textContent}</script>`;
const children = new Map();

addEventListener('message', (event) => {
  if (event.source !== parent || event.origin !== location.origin) return;
  const data = event.data;
  if (typeof data?.agentblameStopWorker === 'number') {
    children.get(data.agentblameStopWorker)?.remove();
    children.delete(data.agentblameStopWorker);
    return;
  }
  if (typeof data?.agentblameStartWorker !== 'number' || !(data.code instanceof Blob) || event.ports.length !== 2) return;
  const child = document.createElement('iframe');
  child.sandbox = 'allow-scripts';
  // Lets the child be cross-origin isolated when this frame is (COOP + COEP, public/_headers): the
  // policy's default ('self') leaves out an opaque origin. Its worker then waits on shared memory
  // for model responses instead of restarting per request (src/pool/page/wait-channel.ts).
  child.allow = 'cross-origin-isolated';
  child.srcdoc = CHILD_DOCUMENT;
  child.addEventListener('load', () => child.contentWindow.postMessage({ agentblameWorkerCode: data.code }, '*', [...event.ports]), { once: true });
  children.set(data.agentblameStartWorker, child);
  document.body.append(child);
});

parent.postMessage({ agentblameFrameReady: true }, location.origin);
