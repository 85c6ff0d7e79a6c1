import { jsonForScriptBlock } from '../../report/embedJson.ts';

/** A minimal HTML page carrying a session the way an exported report does. */
export function renderSessionBlock(value: unknown): string {
  return `<!doctype html><html><head><title>report</title></head><body><h1>Blame</h1>
<script type="application/json" id="agentblame-session">${jsonForScriptBlock(value)}</script></body></html>`;
}
