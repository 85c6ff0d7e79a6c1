import { describe, expect, it } from 'vitest';
import { BROWSER_BLOCKED_PORTS, blockedPort } from './blocked-ports.ts';

describe('blockedPort', () => {
  it('names the ports Chromium refuses, and lets the usual model servers through', () => {
    expect(blockedPort('http://127.0.0.1:9/v1')).toBe(9);
    expect(blockedPort('http://localhost:6667')).toBe(6667);
    expect(blockedPort('https://example.com:10080/v1')).toBe(10080);
    // Ollama, llama.cpp's server, vLLM, LM Studio, the scheme defaults, and ports Chromium 156 allows.
    for (const url of ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:8080/v1', 'http://h:8000/v1', 'http://h:1234/v1', 'http://h/v1', 'https://api.example.com/v1', 'http://h:4190', 'http://h:6679']) {
      expect(blockedPort(url)).toBeNull();
    }
    expect(blockedPort('not a url')).toBeNull();
  });

  it('holds the 80 ports of Chromium\'s list, 6665 to 6669 among them', () => {
    // Counted by hand from net/base/port_util.cc: 75 single ports and the five of 6665-6669 (python3: len of the list split on commas).
    expect(BROWSER_BLOCKED_PORTS.size).toBe(80);
    for (const port of [6665, 6666, 6667, 6668, 6669, 989, 990, 1, 5060]) expect(BROWSER_BLOCKED_PORTS.has(port)).toBe(true);
  });
});
