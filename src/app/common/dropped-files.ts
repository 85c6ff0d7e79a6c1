/**
 * Files from a drop, folders included: a dropped folder arrives as entries that are walked here
 * (the plain `files` list holds only an unreadable placeholder for it). Each file's path inside
 * the drop (`whowhen/hand/12.json`) is remembered, so run ids can name their folder.
 */
const paths = new WeakMap<File, string>();

/** The file's path within its drop or picked folder, else its name. */
export function filePath(file: File): string {
  return paths.get(file) ?? (file.webkitRelativePath || file.name);
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

/** Entries of the last drop that could not be read (a dangling symlink, a loop), one line each. */
let skipped: string[] = [];

/** What the last folder drop skipped, and why; cleared by reading it. */
export function takeDropSkips(): string[] {
  const out = skipped;
  skipped = [];
  return out;
}

/** Deeper than any real folder of traces: a symlink loop the browser follows stops here. */
const MAX_FOLDER_DEPTH = 32;

async function walk(entry: FileSystemEntry, out: File[], depth = 0): Promise<void> {
  const where = entry.fullPath.replace(/^\//, '');
  if (entry.isFile) {
    try {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      paths.set(file, where);
      out.push(file);
    } catch {
      skipped.push(`${where}: cannot be read (a dangling symlink, or a file removed since the drop)`);
    }
  } else if (entry.isDirectory) {
    if (depth >= MAX_FOLDER_DEPTH) {
      skipped.push(`${where}: folders nested more than ${MAX_FOLDER_DEPTH} deep (a symlink loop?) are not read`);
      return;
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    try {
      // readEntries returns at most 100 entries per call: read until it returns none.
      for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
        for (const child of batch) await walk(child, out, depth + 1);
      }
    } catch {
      skipped.push(`${where}: this folder cannot be read (a symlink loop, or no permission)`);
    }
  }
}

/** Must be called during the drop event (the entries are gone after it); reads them afterwards. */
export function filesFromDrop(transfer: DataTransfer | null): Promise<File[]> {
  if (!transfer) return Promise.resolve([]);
  const entries = [...transfer.items].map((item) => (item.kind === 'file' && typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null));
  if (!entries.some((e) => e?.isDirectory)) return Promise.resolve([...transfer.files]);
  skipped = [];
  return (async () => {
    const out: File[] = [];
    for (const entry of entries) if (entry) await walk(entry, out);
    out.sort((a, b) => filePath(a).localeCompare(filePath(b), 'en', { numeric: true }));
    return out;
  })();
}
