/**
 * A bench's `vite preview` must be the server that answers on its port: with `--strictPort` a
 * second preview on a taken port exits, but the bench's first request may reach the server already
 * there (a preview left running by an interrupted run) and measure that server's build instead.
 */
export async function assertPortFree(port: number): Promise<void> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) });
  } catch {
    return; // Nothing answers: free.
  }
  throw new Error(`port ${port} already answers (a vite preview left running?): the bench would measure that server's build; stop it or choose another --port`);
}
