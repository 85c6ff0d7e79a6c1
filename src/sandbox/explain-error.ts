import { boundText } from '../engine/bound-text.ts';
import { MATH_RANDOM_MESSAGE } from './sandbox-realm.ts';

/** Host capabilities people reach for; a ReferenceError on one of them gets a hint. */
const HOST_ONLY_NAMES = new Set([
  'process', 'require', 'module', 'exports', 'Buffer', 'global', 'window', 'self', 'document', 'navigator',
  'location', 'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'localStorage', 'sessionStorage',
  'indexedDB', 'caches', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval',
  'queueMicrotask', 'requestAnimationFrame', 'performance', 'crypto', 'console', 'postMessage', 'importScripts',
  'Worker', 'SharedArrayBuffer', 'Atomics', 'WebAssembly', 'structuredClone', 'atob', 'btoa', 'URL',
]);

/**
 * The message of something thrown by user code, with the sandbox's own refusals reworded so the
 * user learns what is not allowed and why, and with the user's `file:line:column` when the stack
 * names it. Reading properties of a thrown value may run user getters; that is still sandboxed
 * code, and any failure falls back to a generic text.
 */
export function describeThrown(thrown: unknown, locate: (stack: string) => string | undefined): string {
  let text: string;
  let stack = '';
  try {
    if (thrown instanceof Error) {
      text = explain(`${thrown.name}: ${thrown.message}`);
      stack = typeof thrown.stack === 'string' ? thrown.stack : '';
    } else {
      text = `threw a non-error value: ${String(thrown)}`;
    }
  } catch {
    text = 'threw a value that cannot be described';
  }
  const where = stack ? locate(stack) : undefined;
  // Bounded here, where user text enters messages (a thrown error can be megabytes long).
  const bounded = boundText(text);
  return where ? `${bounded} (at ${where})` : bounded;
}

function explain(message: string): string {
  if (message.includes('%SharedDate%')) {
    return 'Error: the clock (Date.now(), new Date() without arguments) is not available in a pipeline definition, so replays stay reproducible';
  }
  if (message.includes('%SharedMath%.random')) return `Error: ${MATH_RANDOM_MESSAGE}`;
  // SES resolves unknown globals to undefined, so a call shows up as "is not a function".
  const undefinedName = /^(?:ReferenceError: (\S+) is not defined|TypeError: (\S+) is not a function)$/.exec(message)?.slice(1).find(Boolean);
  if (undefinedName !== undefined && HOST_ONLY_NAMES.has(undefinedName)) {
    return `${message}: pipeline definitions have no access to the network, storage, timers, the DOM or other host globals`;
  }
  return message;
}
