/**
 * HTML escaping for text content and double-quoted attribute values. Every string that comes from
 * a trace, a pipeline definition or a session passes through here before it reaches the report.
 * Escaping all five of & < > " ' makes the same function safe in both positions (HTML Standard,
 * 13.1.2.6 and 13.2.5: no tag, entity or attribute can start without a raw < & or quote).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Shortens a string for display, saying how much was cut. The full value stays in the embedded
 * session data; this only keeps one hostile or huge field from blowing up the page.
 * Cuts on a code point boundary so no lone surrogate is produced.
 */
export function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}
