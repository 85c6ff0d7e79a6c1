import { describe, expect, it } from 'vitest';
import { eachArgument, takePlainFlag } from './flag-reader.ts';

function read(argv: string[], inline?: (arg: string) => boolean): string[] {
  const seen: string[] = [];
  eachArgument(argv, (flag, value, arg) => seen.push(flag.startsWith('--') && flag !== '--on' ? `${flag}:${value()}` : arg), inline ? { inline } : {});
  return seen;
}

describe('eachArgument', () => {
  it('reads each flag\'s value after = or as the next argument, and positionals once each', () => {
    expect(read(['a.json', '--name', 'x', '--tag=k=v', '--on', 'b.json'])).toEqual(['a.json', '--name:x', '--tag:k=v', '--on', 'b.json']);
  });

  it('leaves an argument whole where the parser says it carries no inline value', () => {
    expect(read(['--fix=a=b', 'c'], (arg) => !arg.startsWith('--fix='))).toEqual(['--fix=a=b:c']);
  });

  it('a flag with no value left is refused, naming it', () => {
    expect(() => read(['--name'])).toThrow('--name needs a value');
  });
});

describe('takePlainFlag', () => {
  it('sets a switch or a text field, and leaves other flags (and inherited names) to the parser', () => {
    const options: { json: boolean; html?: string } = { json: false };
    const plain = { switches: { '--json': 'json' }, texts: { '--html': 'html' } } as const;
    expect(takePlainFlag(options, '--json', () => 'unused', plain)).toBe(true);
    expect(takePlainFlag(options, '--html', () => 'r.html', plain)).toBe(true);
    expect(takePlainFlag(options, '--other', () => 'x', plain)).toBe(false);
    expect(takePlainFlag(options, 'toString', () => 'x', plain)).toBe(false);
    expect(options).toEqual({ json: true, html: 'r.html' });
  });
});
