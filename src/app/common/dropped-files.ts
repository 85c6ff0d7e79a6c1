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

async function walk(entry: FileSystemEntry, out: File[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    paths.set(file, entry.fullPath.replace(/^\//, ''));
    out.push(file);
  } else if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries returns at most 100 entries per call: read until it returns none.
    for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
      for (const child of batch) await walk(child, out);
    }
  }
}

/** Must be called during the drop event (the entries are gone after it); reads them afterwards. */
export function filesFromDrop(transfer: DataTransfer | null): Promise<File[]> {
  if (!transfer) return Promise.resolve([]);
  const entries = [...transfer.items].map((item) => (item.kind === 'file' && typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null));
  if (!entries.some((e) => e?.isDirectory)) return Promise.resolve([...transfer.files]);
  return (async () => {
    const out: File[] = [];
    for (const entry of entries) if (entry) await walk(entry, out);
    out.sort((a, b) => filePath(a).localeCompare(filePath(b), 'en', { numeric: true }));
    return out;
  })();
}
