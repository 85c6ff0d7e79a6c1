/**
 * `?trace=<path>` opens a trace served next to the build. Only same-origin addresses are followed:
 * the workbench never sends a request outside its origin.
 */
export function traceUrlFromQuery(search: string, base: string): { url: URL } | { error: string } | null {
  const value = new URLSearchParams(search).get('trace');
  if (value === null || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return { error: `?trace=${value} is not a valid address.` };
  }
  if (url.origin !== new URL(base).origin) {
    return { error: `?trace= only opens files served from this site (${new URL(base).origin}); ${url.origin} is another origin, so nothing was fetched.` };
  }
  return { url };
}
