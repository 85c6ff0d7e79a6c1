/**
 * The model layer's messages serve the command and the page at once and name both ways to act:
 * "(the command: --concurrency 1; the page: Model > Requests at once)". The page shows its own half
 * only, so no message in it names a flag it has no way to type; a hint for the command alone goes.
 */
export function pageWords(message: string): string {
  return message.replace(/\(the command: [^;()]*; the page: ([^()]*)\)/g, '($1)').replace(/ ?\(the command: [^()]*\)/g, '');
}
