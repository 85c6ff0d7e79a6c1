import { describe, expect, it } from 'vitest';
import { RUN_VIEW_SHORTCUTS, shortcutFor, timelineMoveFor } from './shortcuts.ts';

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

describe('timelineMoveFor', () => {
  it('W / S zoom and A / D pan the waterfall, in either case, as in Perfetto', () => {
    expect(['w', 's', 'a', 'd', 'W', 'D'].map((k) => timelineMoveFor(key(k), false))).toEqual(['zoom-in', 'zoom-out', 'earlier', 'later', 'zoom-in', 'later']);
    expect(RUN_VIEW_SHORTCUTS.map((s) => s.keys)).toEqual(expect.arrayContaining(['W / S', 'A / D']));
  });
  it('does nothing while typing, with a modifier (Ctrl + D, Ctrl + S are the browser\'s), or for other keys', () => {
    expect(timelineMoveFor(key('w'), true)).toBeNull();
    expect(timelineMoveFor(key('s', { ctrlKey: true }), false)).toBeNull();
    expect(timelineMoveFor(key('d', { metaKey: true }), false)).toBeNull();
    expect(timelineMoveFor(key('q'), false)).toBeNull();
  });
});
