import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cpuBetween } from './process-cpu.ts';
import { assertPortFree } from './port-free.ts';

describe('CPU between two readings, thread by thread', () => {
  it('sums each thread\'s own difference: a thread gone by the second reading takes nothing off, a new one counts from zero', () => {
    const first = new Map([['10/10', 100], ['10/11', 50], ['12/12', 400]]);
    // 12 ended (the previous run's renderer): summed totals would say -370 ms.
    const second = new Map([['10/10', 130], ['10/11', 55], ['13/13', 7]]);
    expect(cpuBetween(first, second)).toBe(30 + 5 + 7);
  });
});

describe('the bench refuses a port that already answers', () => {
  it('throws while a server answers there, and passes once it is gone', async () => {
    const server = createServer((_, res) => res.end('old build'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await expect(assertPortFree(port)).rejects.toThrow(new RegExp(`port ${port} already answers`));
    await new Promise<void>((r) => server.close(() => r()));
    await expect(assertPortFree(port)).resolves.toBeUndefined();
  });
});
