/** The id of the script element that holds the session inside a report. */
export const SESSION_BLOCK_ID = 'agentblame-session';

/**
 * Finds the session data embedded by `renderReport` and returns it parsed, unvalidated: the caller
 * (the session importer) must validate it like any untrusted session file. Throws an Error that
 * says what is wrong when the HTML is not an agentblame report or its data block is damaged.
 *
 * Reads the text with a regular expression rather than a DOM parser so it runs in Node and workers.
 * That is sound for our own output, whose block holds no `<` (see jsonForScriptBlock), and harmless
 * for anything else: whatever is found is only parsed as JSON, never run.
 */
export function extractSessionFromReport(html: string): unknown {
  if (typeof html !== 'string') throw new Error('Report import: expected the HTML text of a report.');
  const opening = /<script\b([^>]*)>/gi;
  for (let match = opening.exec(html); match; match = opening.exec(html)) {
    const attributes = match[1];
    if (!/\bid\s*=\s*(["']?)agentblame-session\1(?=[\s/>]|$)/i.test(attributes)) continue;
    if (!/\btype\s*=\s*(["']?)application\/json\1(?=[\s/>]|$)/i.test(attributes)) {
      throw new Error('Report import: the agentblame-session block is not of type application/json.');
    }
    const start = match.index + match[0].length;
    const end = html.slice(start).search(/<\/script\s*>/i);
    if (end < 0) throw new Error('Report import: the agentblame-session block is not closed (no </script>); the file may be truncated.');
    const text = html.slice(start, start + end);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new Error(`Report import: the agentblame-session block is not valid JSON (${(error as Error).message}).`);
    }
  }
  throw new Error(
    'Report import: this HTML file holds no agentblame session (no <script type="application/json" id="agentblame-session"> block). Was it exported by agentblame?',
  );
}
