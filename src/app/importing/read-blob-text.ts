/**
 * Reads a Blob as UTF-8 text in streamed chunks, reporting bytes read, so a 50 MB file shows
 * progress instead of a frozen bar. Invalid UTF-8 becomes U+FFFD, as `Blob.text()` would.
 */
export async function readBlobText(blob: Blob, onProgress: (loaded: number, total: number) => void): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  const reader = blob.stream().getReader();
  const parts: string[] = [];
  let loaded = 0;
  let lastReport = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.byteLength;
    parts.push(decoder.decode(value, { stream: true }));
    // Report about every 1 % so the page gets a few hundred messages at most.
    if (loaded - lastReport >= blob.size / 100 || loaded === blob.size) {
      lastReport = loaded;
      onProgress(loaded, blob.size);
    }
  }
  parts.push(decoder.decode());
  return parts.join('');
}
