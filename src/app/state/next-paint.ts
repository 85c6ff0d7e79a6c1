/**
 * Resolves once the page has painted the frame it is preparing (or at once in a hidden tab, which
 * paints nothing and whose animation frames wait). The analysis starts after it, so the study
 * view's first layout runs on a free core instead of racing the workers for one: with as many
 * workers as cores it was the one main-thread task over 50 ms (bench/README.md, "Page speed").
 */
export function nextPaint(): Promise<void> {
  if (typeof document === 'undefined' || document.visibilityState !== 'visible' || typeof requestAnimationFrame !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    // The animation frame runs before the paint; a message posted from it is handled after.
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  });
}
