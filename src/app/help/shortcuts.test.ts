import { describe, expect, it } from 'vitest';
import { shortcutFor } from './shortcuts.ts';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('shortcutFor', () => {
  it('maps the listed keys to their actions, digits to a view index', () => {
    expect(shortcutFor(key('j'), false)).toEqual({ action: 'next-case' });
    expect(shortcutFor(key('k'), false)).toEqual({ action: 'previous-case' });
    expect(shortcutFor(key('?'), false)).toEqual({ action: 'help' });
    expect(shortcutFor(key('3'), false)).toEqual({ action: 'view', view: 2 });
    expect(shortcutFor(key('e'), false)).toEqual({ action: 'export-report' });
  });
  it('ignores keys typed into a field, with a modifier, or not listed', () => {
    expect(shortcutFor(key('j'), true)).toBeNull();
    expect(shortcutFor(key('e', { ctrlKey: true }), false)).toBeNull();
    expect(shortcutFor(key('0'), false)).toBeNull();
    expect(shortcutFor(key('x'), false)).toBeNull();
  });
});
