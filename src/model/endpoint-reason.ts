import { excerpt } from './endpoint-error.ts';

/** Longest quote of an endpoint's own error message (long enough for a chat template's complaint). */
export const REASON_CHARS = 600;

/**
 * `: "the endpoint's message"` from an OpenAI-style `{ error: { message } }` body (or `error`,
 * `message`, `detail` as a string), else an excerpt of the body. A chat template's own complaint
 * (llama.cpp quotes the template, whose `raise_exception('...')` holds the reason) leads the quote,
 * so a strict template's rule is not lost behind the template's source. `text` must already be masked.
 */
export function quoteEndpointError(text: string): string {
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
    const inner = typeof body?.error === 'string' ? body.error : typeof body?.error?.message === 'string' ? body.error.message : typeof body?.message === 'string' ? body.message : typeof body?.detail === 'string' ? body.detail : undefined;
    if (inner !== undefined) message = inner;
  } catch {
    // Not JSON: quote the text itself.
  }
  const raised = /raise_exception\(\s*(['"])((?:(?!\1).){1,300})\1\s*\)/s.exec(message)?.[2];
  const short = excerpt(raised !== undefined && !message.startsWith(raised) ? `${raised} (the chat template refused the messages; the endpoint said: ${message})` : message, REASON_CHARS);
  return short === '' ? '' : `: "${short}"`;
}
