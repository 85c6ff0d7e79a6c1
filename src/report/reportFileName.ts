/**
 * The download name for a session's report: `<session name>.agentblame.html`, with characters that
 * file systems reject (/ \ : * ? " < > | and control characters) replaced by "_", leading dots and
 * trailing dots/spaces removed (hidden files, Windows), and the stem kept to 120 characters.
 */
export function reportFileName(sessionName: string): string {
  let stem = sessionName
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029/\\:*?"<>|]/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (stem.length > 120) stem = stem.slice(0, 120).replace(/[\ud800-\udbff]$/, '');
  return `${stem || 'session'}.agentblame.html`;
}
