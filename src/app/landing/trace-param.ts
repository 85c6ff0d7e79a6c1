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

/**
 * Why the answer to a `?trace=` fetch is not the file, or null when it is. A missing file is not
 * always a 404: a static host that serves the app for every path answers with the workbench's own
 * page, which must be reported as "nothing there", not read as a report.
 */
export function traceResponseProblem(url: URL, response: { ok: boolean; status: number; statusText: string; contentType: string | null }): string | null {
  const path = decodeURIComponent(url.pathname);
  if (response.status === 404) return `There is no file at ${path} on this site (404 Not Found).`;
  if (!response.ok) return `${path} answered ${response.status} ${response.statusText}.`;
  const asksForHtml = /\.html?$/i.test(url.pathname);
  if (!asksForHtml && /^\s*text\/html\b/i.test(response.contentType ?? '')) {
    return `There is no file at ${path} on this site: the server answered with a web page instead (is the path right?).`;
  }
  return null;
}
