/**
 * The workbench's keyboard shortcuts: one list, read by the key handler and the `?` overlay.
 * Single keys without modifiers, ignored while typing in a field.
 */
export type ShortcutAction = 'help' | 'next-case' | 'previous-case' | 'back' | 'view' | 'open' | 'export-report' | 'filter';

export interface Shortcut {
  keys: string;
  does: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: '?', does: 'Show or hide this help' },
  { keys: 'j / k', does: 'Next / previous case (in the order of the case list)' },
  { keys: '1 … 9', does: 'Switch to the n-th view (Batch, Cases, Case, Definition, …)' },
  { keys: 'Escape', does: 'Close this help; from a case, back to the case list' },
  { keys: '/', does: 'Filter the case list' },
  { keys: 'o', does: 'Open a trace, definition, game table, session or report' },
  { keys: 'e', does: 'Export the report' },
  { keys: 'Alt + ← / →', does: 'Back / forward between views (the browser’s own history)' },
];

/**
 * The keys that work in the run view (recorded runs): the study's keys (cases, views, export) do
 * nothing there, so its help lists only these.
 */
export const RUN_VIEW_SHORTCUTS: readonly Shortcut[] = [
  { keys: '?', does: 'Show or hide this help' },
  { keys: '↑ / ↓', does: 'Previous / next step (in the step list)' },
  { keys: '← / →', does: 'Collapse / expand the step’s subtree, or go to its parent / first child' },
  { keys: 'Home / End', does: 'First / last step on show' },
  { keys: '/', does: 'Find a step (or filter the run list)' },
  { keys: 'o', does: 'Open more files' },
  { keys: 'W / S', does: 'Zoom the waterfall in / out (as in Perfetto)' },
  { keys: 'A / D', does: 'Pan the waterfall earlier / later' },
  { keys: 'Ctrl + wheel, Shift + wheel', does: 'Zoom, pan the waterfall (over the steps or the ruler)' },
];

/** The actions that work in the run view. */
export const RUN_VIEW_ACTIONS: ReadonlySet<ShortcutAction> = new Set(['help', 'filter', 'open']);

/** The single keys and what they do (a Map: a key named like an Object property is no action). */
const KEY_ACTIONS: ReadonlyMap<string, ShortcutAction> = new Map([
  ['?', 'help'],
  ['j', 'next-case'],
  ['k', 'previous-case'],
  ['Escape', 'back'],
  ['/', 'filter'],
  ['o', 'open'],
  ['e', 'export-report'],
]);

/** The action of a key press, or null (modifier held, or typing in a field). */
export function shortcutFor(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>, typing: boolean): { action: ShortcutAction; view?: number } | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (typing) return null;
  const action = KEY_ACTIONS.get(event.key);
  if (action !== undefined) return { action };
  if (/^[1-9]$/.test(event.key)) return { action: 'view', view: Number(event.key) - 1 };
  return null;
}

/** What the run view's waterfall does with a key, as Perfetto's timeline does (W / S zoom, A / D pan). */
export type TimelineMove = 'zoom-in' | 'zoom-out' | 'earlier' | 'later';

const TIMELINE_KEYS: ReadonlyMap<string, TimelineMove> = new Map([
  ['w', 'zoom-in'],
  ['s', 'zoom-out'],
  ['a', 'earlier'],
  ['d', 'later'],
]);

/** The waterfall's move for a key press, or null (another key, a modifier held, or typing in a field). Either case of the letter. */
export function timelineMoveFor(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>, typing: boolean): TimelineMove | null {
  if (event.ctrlKey || event.metaKey || event.altKey || typing) return null;
  return TIMELINE_KEYS.get(event.key.toLowerCase()) ?? null;
}

/**
 * Whether a key press lands in something the user types into. The event's target is retargeted
 * to the host of a shadow root (the definition editor lives in one), so the element really typed
 * into is the first of the event's composed path; every element on it is checked.
 */
export function isTypingEvent(event: Pick<Event, 'composedPath' | 'target'>): boolean {
  const path = event.composedPath();
  return (path.length > 0 ? path : [event.target]).some(isTypingTarget);
}

/** Whether an element is something the user types into. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'file', 'range', 'color', 'reset'].includes(type);
}
