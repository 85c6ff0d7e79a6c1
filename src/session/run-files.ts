/**
 * Trace files kept for the run view (the `runFiles` store, db.ts): what one record holds, the
 * groups the page lists, and which stored file an address's run key names. Pure: no IndexedDB here.
 */

/** One trace file opened in the run view, kept as it was read. */
export interface StoredRunFile {
  /** The key: the file's path within its drop or picked folder (`whowhen/hand/12.json`), else its name. */
  fileName: string;
  /** The file itself, read again through the importer when an address reopens it. */
  blob: Blob;
  /** Its size in bytes (the blob's), so the list and the limit need not touch the blob. */
  size: number;
  /** The files opened together share a group and reopen together, in `order`. */
  group: string;
  order: number;
  /** When its group was opened (ISO). */
  openedAt: string;
  /** The ids of the runs it holds (none for a file of predictions). */
  runIds: string[];
}

/** What the page lists: the files opened together, newest group first. */
export interface StoredRunGroup {
  id: string;
  openedAt: string;
  size: number;
  files: { fileName: string; size: number; runIds: string[] }[];
}

/** Where a run key was found: the group to reopen, and the file and run id inside it. */
export interface StoredRunPlace {
  group: string;
  fileName: string;
  runId: string;
}

/** Files opened together in bytes beyond this are not kept, and older groups make way for newer ones. */
export const MAX_KEPT_RUN_BYTES = 256 * 1024 * 1024;

/** Records grouped as they were opened, newest first (ties by group id, so the order is stable). */
export function groupRunFiles(records: readonly Omit<StoredRunFile, 'blob'>[]): StoredRunGroup[] {
  const groups = new Map<string, StoredRunGroup & { order: number[] }>();
  for (const record of records) {
    const group = groups.get(record.group) ?? { id: record.group, openedAt: record.openedAt, size: 0, files: [], order: [] };
    group.size += record.size;
    group.files.push({ fileName: record.fileName, size: record.size, runIds: record.runIds });
    group.order.push(record.order);
    groups.set(record.group, group);
  }
  return [...groups.values()]
    .map(({ order, files, ...group }) => ({ ...group, files: files.map((file, i) => ({ file, at: order[i] })).sort((a, b) => a.at - b.at).map(({ file }) => file) }))
    .sort((a, b) => (a.openedAt < b.openedAt ? 1 : a.openedAt > b.openedAt ? -1 : a.id.localeCompare(b.id)));
}

/**
 * The stored file holding the run an address names. The run view keys a run by its id, or, when
 * another open file has a run of that id, by `<file> <id>` (then `<file> <id> (2)`, ...): each
 * form is matched, newest group first.
 */
export function findStoredRun(groups: readonly StoredRunGroup[], key: string): StoredRunPlace | null {
  for (const group of groups) {
    for (const file of group.files) {
      for (const runId of file.runIds) {
        const qualified = `${file.fileName} ${runId}`;
        if (key === runId || key === qualified || (key.startsWith(`${qualified} (`) && /^ \(\d+\)$/.test(key.slice(qualified.length)))) {
          return { group: group.id, fileName: file.fileName, runId };
        }
      }
    }
  }
  return null;
}

/**
 * The groups to drop, oldest first, so that the kept bytes fit `limit` (`keep`, the group just
 * stored, is never dropped).
 */
export function groupsToEvict(groups: readonly StoredRunGroup[], limit: number, keep: string): string[] {
  let total = groups.reduce((sum, group) => sum + group.size, 0);
  const out: string[] = [];
  for (const group of [...groups].reverse()) {
    if (total <= limit) break;
    if (group.id === keep) continue;
    out.push(group.id);
    total -= group.size;
  }
  return out;
}
