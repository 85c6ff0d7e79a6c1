/**
 * The wait a `Retry-After` header asks for, in ms, capped at `capMs`; null when absent or not
 * understood. RFC 9110, section 10.2.3: either a number of seconds (delay-seconds) or an
 * HTTP-date; a date in the past means "now" (0).
 */
export function retryAfterMs(header: string | null | undefined, nowMs: number, capMs = 60_000): number | null {
  if (header == null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(capMs, Number(text) * 1000);
  // Fractional seconds are not in the RFC, but some servers send them.
  if (/^\d*\.\d+$/.test(text)) return Math.min(capMs, Math.round(Number(text) * 1000));
  const date = Date.parse(text);
  if (Number.isNaN(date) || !/[A-Za-z]/.test(text)) return null;
  return Math.min(capMs, Math.max(0, date - nowMs));
}
