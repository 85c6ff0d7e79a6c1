/**
 * A request to a model endpoint that failed for good (after retries, or at once for a 4xx other
 * than 408/409/429). The message names the endpoint by its base URL and quotes what it answered;
 * it never holds the API key (the connector masks it even when an endpoint echoes it back).
 */
export class ModelEndpointError extends Error {
  override name = 'ModelEndpointError';
  constructor(
    message: string,
    /** The HTTP status, or 0 for a network error, a timeout or a malformed answer. */
    readonly status: number,
    /** Whether trying again later might succeed (a transient failure whose retries ran out). */
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/** The request was cancelled by its caller (not a failure of the endpoint). */
export class ModelRequestCancelled extends Error {
  override name = 'AbortError';
  constructor(message = 'model request cancelled') {
    super(message);
  }
}

/**
 * Mask every occurrence of `key` in `text`, also as written inside a JSON string (endpoints and
 * proxies sometimes echo what they were sent). Mask before cutting an excerpt: a key cut in two
 * by the excerpt would no longer match, and its first part would leak.
 */
export function maskKey(text: string, key: string | undefined): string {
  if (!key) return text;
  let out = text.split(key).join('[API key]');
  const inJson = JSON.stringify(key).slice(1, -1);
  if (inJson !== key) out = out.split(inJson).join('[API key]');
  return out;
}

/** A short, one-line excerpt of an endpoint's text for a message: at most `max` characters. */
export function excerpt(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}
