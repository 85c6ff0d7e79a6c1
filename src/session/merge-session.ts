import type { Session } from './types.ts';

/** The fields a tab edits as a whole (results are merged per case instead). */
export const MERGED_FIELDS = ['name', 'status', 'fileName', 'pipeline', 'cases', 'games', 'settings', 'batch', 'contrast', 'meta'] as const;
export type MergedField = (typeof MERGED_FIELDS)[number];

/** A session's fields that are saved as a whole. */
export type SessionFields = Pick<Session, MergedField>;

/** The cases and game tables can be tens of megabytes: the page keeps the very same arrays while they are unchanged. */
const BULKY: ReadonlySet<MergedField> = new Set(['cases', 'games']);

export function fieldsOf(session: Session): SessionFields {
  const { name, status, fileName, pipeline, cases, games, settings, batch, contrast, meta } = session;
  return { name, status, fileName, pipeline, cases, games, settings, batch, contrast, meta };
}

/** Plain-data equality (identical references short-cut the comparison). */
function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields this tab changed since `base` (its last save or the session as opened; null: all).
 * The bulky inputs count as changed when they are other arrays, so no save serialises them.
 */
export function changedFields(base: SessionFields | null, mine: SessionFields): MergedField[] {
  if (base === null) return [...MERGED_FIELDS];
  return MERGED_FIELDS.filter((field) => (BULKY.has(field) ? mine[field] !== base[field] : !sameValue(mine[field], base[field])));
}

export type FieldMerge = { merged: SessionFields; mineChanged: MergedField[] } | { conflicts: MergedField[] };

/**
 * Three-way merge of the fields this tab wants to save with the stored ones. `mineBase` is what
 * this tab last saved or opened, `theirsBase` what the store held then, `theirs` what it holds now
 * (equal to `theirsBase` unless another tab wrote meanwhile). A field changed on one side only takes
 * that side's value; a field changed differently on both sides is a conflict (returned by name,
 * nothing merged), because picking one would silently discard the other tab's work. So this tab's
 * own renames, settings changes and status changes never conflict with each other.
 */
export function mergeFields(mineBase: SessionFields | null, mine: SessionFields, theirsBase: SessionFields, theirs: SessionFields): FieldMerge {
  const mineChanged = changedFields(mineBase, mine);
  const conflicts: MergedField[] = [];
  const merged: SessionFields = { ...theirs };
  for (const field of mineChanged) {
    const theirsChanged = theirs !== theirsBase && !sameValue(theirs[field], theirsBase[field]);
    if (theirsChanged && !sameValue(mine[field], theirs[field])) conflicts.push(field);
    else Object.assign(merged, { [field]: mine[field] });
  }
  return conflicts.length > 0 ? { conflicts } : { merged, mineChanged };
}
