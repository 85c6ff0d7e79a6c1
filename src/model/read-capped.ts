/**
 * The text of a response body, or null when it is longer than `maxBytes`: a declared
 * Content-Length past the cap is refused before anything is read, and a body without one is read
 * chunk by chunk and cancelled as soon as it passes the cap, so an endpoint (or whatever answers
 * in its place) cannot make the host hold more than `maxBytes` of one answer.
 */
export async function readCapped(response: Response, maxBytes: number): Promise<string | null> {
  const declared = response.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) {
    await response.body?.cancel().catch(() => {});
    return null;
  }
  if (!response.body) {
    const text = await response.text();
    return new TextEncoder().encode(text).byteLength > maxBytes ? null : text;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let total = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
