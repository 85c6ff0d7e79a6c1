/**
 * Headless Chromium 156 loads its omnibox popup (a WebUI page in a renderer of its own) when a
 * window opens; in a trace of every thread (trace-threads.ts) that renderer took up to a core for
 * the first seconds of each new context, i.e. during the analysis being timed. A user's browser
 * did that long before they open the workbench, so the bench turns it off.
 */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
];
