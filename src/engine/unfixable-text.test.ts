import { describe, expect, it } from 'vitest';
import { unfixableText } from './unfixable-text.ts';

describe('unfixableText', () => {
  it('says "every world" where values are means over worlds', () => {
    expect(unfixableText('recorded')).toBe('not fixable by any combination of fixes');
    expect(unfixableText('prior')).toBe('where no combination of fixes succeeds in every world');
    expect(unfixableText('posterior')).toBe(unfixableText('prior'));
  });
});
