import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/**
 * A Chromium driven over the DevTools protocol directly (a pipe, as Playwright does), for a test
 * in which a frame's process crashes: Playwright takes that for a crash of the page (it refuses
 * the page's calls from then on) and then throws from its own event handlers as frames come and
 * go, which fails the test whatever it checks.
 */
export interface CdpBrowser {
  /** Sends a command to the browser, or to an attached target's session. */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<T>;
  /** Listens to an event (of any session). */
  on(method: string, listener: (params: Record<string, unknown>, sessionId?: string) => void): void;
  close(): Promise<void>;
}

export function launchCdpBrowser(executablePath: string, args: string[]): CdpBrowser {
  const child: ChildProcess = spawn(executablePath, [...args, '--remote-debugging-pipe', 'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void; method: string }>();
  const listeners = new Map<string, ((params: Record<string, unknown>, sessionId?: string) => void)[]>();
  let buffered = '';
  fromBrowser.setEncoding('utf8');
  fromBrowser.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as { id?: number; result?: never; error?: { message: string }; method?: string; params?: Record<string, unknown>; sessionId?: string };
      buffered = buffered.slice(end + 1);
      if (message.id !== undefined) {
        const call = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) call?.reject(new Error(`${call.method}: ${message.error.message}`));
        else call?.resolve(message.result as never);
      } else if (message.method) for (const listener of listeners.get(message.method) ?? []) listener(message.params ?? {}, message.sessionId);
    }
  });
  return {
    send(method, params = {}, sessionId) {
      const id = nextId++;
      toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) }) + '\0');
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
    },
    on(method, listener) {
      listeners.set(method, [...(listeners.get(method) ?? []), listener]);
    },
    /** Asks the browser to close (it then ends its own processes, which may still write to its profile), killing it if it does not. */
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      toBrowser.write(JSON.stringify({ id: nextId++, method: 'Browser.close', params: {} }) + '\0');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
