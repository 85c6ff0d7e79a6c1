/** The id of the script element that holds the session inside a report. */
export const SESSION_BLOCK_ID = 'agentblame-session';

/**
 * Finds the session data embedded by `renderReport` and returns it parsed, unvalidated: the caller
 * (the session importer) must validate it like any untrusted session file. Throws an Error that
 * says what is wrong when the HTML is not an agentblame report or its data block is damaged.
 *
 * Reads the text with a scan rather than a DOM parser so it runs in Node and workers. That is
 * sound for our own output, whose block holds no `<` (see jsonForScriptBlock), and harmless for
 * anything else: whatever is found is only parsed as JSON, never run. The scan is linear in the
 * text: each `<script` opening is found once and its tag read up to the next `>`; a regular
 * expression like `/<script\b([^>]*)>/g` retries from every `<script` of a tag that never closes,
 * which made 640 KB of `<script ` take half a minute.
 */
export function extractSessionFromReport(html: string): unknown {
  if (typeof html !== 'string') throw new Error('Report import: expected the HTML text of a report.');
  for (const tag of scriptTags(html)) {
    const attributes = tag.attributes;
    if (!/\bid\s*=\s*(["']?)agentblame-session\1(?=[\s/>]|$)/i.test(attributes)) continue;
    if (!/\btype\s*=\s*(["']?)application\/json\1(?=[\s/>]|$)/i.test(attributes)) {
      throw new Error('Report import: the agentblame-session block is not of type application/json.');
    }
    const end = closingTag(html, tag.end);
    if (end < 0) throw new Error('Report import: the agentblame-session block is not closed (no </script>); the file may be truncated.');
    const text = html.slice(tag.end, end);
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

/**
 * The `<script ...>` opening tags of the text in order: where each one's attributes are and where
 * the tag ends. One pass: a tag runs to the next `>`, and the search goes on after it; once no `>`
 * is left, no later `<script` can be a whole tag, so the scan stops.
 */
function* scriptTags(html: string): Generator<{ attributes: string; end: number }> {
  const opening = /<script(?![\w])/gi;
  for (let match = opening.exec(html); match; match = opening.exec(html)) {
    const from = match.index + match[0].length;
    const close = html.indexOf('>', from);
    if (close < 0) return;
    yield { attributes: html.slice(from, close), end: close + 1 };
    opening.lastIndex = close + 1;
  }
}

/** Where the `</script>` (any case, spaces before `>`) after `from` starts, or -1. */
function closingTag(html: string, from: number): number {
  const closing = /<\/script\s*>/gi;
  closing.lastIndex = from;
  return closing.exec(html)?.index ?? -1;
}
