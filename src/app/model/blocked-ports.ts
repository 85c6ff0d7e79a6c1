/**
 * The ports Chromium refuses to connect to over http(s) (its `kRestrictedPorts`, in
 * net/base/port_util.cc; a request to one fails with ERR_UNSAFE_PORT before anything is sent,
 * which the page only sees as "Failed to fetch"). Chromium 156 was checked to let 4190 and 6679
 * through, which the Fetch standard's "bad port" list has since added, so they are not here.
 * Only the page uses this list: the command runs on Node, whose fetch keeps a list of its own.
 */
export const BROWSER_BLOCKED_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723,
  2049, 3659, 4045, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6697, 10080,
]);

/** The port of an http(s) URL the browser refuses, or null (the scheme's default port when none is written). */
export function blockedPort(url: string): number | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  return BROWSER_BLOCKED_PORTS.has(port) ? port : null;
}
