/**
 * Model files kept in this browser for the in-page model: the Origin Private File System (OPFS),
 * folder `model-files/`, one `<sha256>.gguf` with a `<sha256>.json` beside it (name, size, hash,
 * when added). Kept apart from the session database (IndexedDB) so a large file never weighs on
 * sessions and neither store's version moves for the other.
 */
import { ggufSizeProblem } from '../../../model/index.ts';

export interface StoredModelFile {
  sha256: string;
  /** The file name as picked, dropped or fetched (shown; the id is the hash). */
  name: string;
  size: number;
  added: string;
}

/** The OPFS calls used here (a subset of the File System Access API's types). */
export interface ModelFileDirectory {
  getFileHandle(name: string, options?: { create?: boolean }): Promise<{ getFile(): Promise<File>; createWritable(): Promise<{ write(data: Blob | BufferSource | string): Promise<void>; close(): Promise<void> }> }>;
  removeEntry(name: string): Promise<void>;
  values(): AsyncIterable<{ kind: string; name: string }>;
}

export class ModelFileError extends Error {}

/** Bytes read to check a file's header (metadata with a large vocabulary takes a few megabytes). */
const HEADER_BYTES = 32 * 1024 * 1024;

/** A byte count for messages: `1.2 MB`. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
}

/**
 * Whether the browser can keep `size` more bytes for this page (navigator.storage.estimate): the
 * problem, or null. An estimate the browser does not give is no reason to refuse.
 */
export async function storageProblem(size: number, estimate: (() => Promise<StorageEstimate>) | undefined): Promise<string | null> {
  if (!estimate) return null;
  let e: StorageEstimate;
  try {
    e = await estimate();
  } catch {
    return null;
  }
  if (e.quota === undefined) return null;
  const free = e.quota - (e.usage ?? 0);
  return size > free ? `The model file is ${megabytes(size)}, but this browser can keep only ${megabytes(Math.max(0, free))} more for this page: free some space (or delete kept model files) first.` : null;
}

export async function sha256Hex(data: ArrayBuffer): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export class ModelFiles {
  constructor(
    private readonly directory: () => Promise<ModelFileDirectory> = openDirectory,
    private readonly estimate: (() => Promise<StorageEstimate>) | undefined = globalThis.navigator?.storage?.estimate?.bind(navigator.storage),
  ) {}

  /** The kept files, newest first; an unreadable description is left out (its file stays until deleted). */
  async list(): Promise<StoredModelFile[]> {
    const dir = await this.directory();
    const out: StoredModelFile[] = [];
    for await (const entry of dir.values()) {
      if (entry.kind !== 'file' || !/^[0-9a-f]{64}\.json$/.test(entry.name)) continue;
      try {
        const text = await (await (await dir.getFileHandle(entry.name)).getFile()).text();
        const parsed = validStored(JSON.parse(text));
        if (parsed) out.push(parsed);
      } catch {
        // A half-written description: the file is not listed.
      }
    }
    return out.sort((a, b) => b.added.localeCompare(a.added));
  }

  /** Check, hash and keep a file; the same bytes kept twice are one entry. */
  async add(file: Blob, name: string): Promise<StoredModelFile> {
    // The header's own account of the size: a truncated file is refused here, not half-loaded later.
    const problem = ggufSizeProblem(new Uint8Array(await file.slice(0, HEADER_BYTES).arrayBuffer()), file.size, name);
    if (problem) throw new ModelFileError(problem);
    const room = await storageProblem(file.size, this.estimate);
    if (room) throw new ModelFileError(room);
    const sha256 = await sha256Hex(await file.arrayBuffer());
    const dir = await this.directory();
    const kept: StoredModelFile = { sha256, name, size: file.size, added: new Date().toISOString() };
    const known = (await this.list()).find((f) => f.sha256 === sha256);
    if (known) return known;
    const data = await (await dir.getFileHandle(`${sha256}.gguf`, { create: true })).createWritable();
    await data.write(file);
    await data.close();
    // The description last: a file without one is not listed, so a torn write is never used.
    const meta = await (await dir.getFileHandle(`${sha256}.json`, { create: true })).createWritable();
    await meta.write(JSON.stringify(kept));
    await meta.close();
    return kept;
  }

  /** The kept bytes of a file, checked against its hash's size. */
  async file(sha256: string): Promise<{ file: File; stored: StoredModelFile }> {
    const stored = (await this.list()).find((f) => f.sha256 === sha256);
    if (!stored) throw new ModelFileError(`The model file gguf-sha256:${sha256.slice(0, 8)}… is not kept in this browser: add it in Settings > Model (Use a model file in this browser).`);
    const file = await (await (await this.directory()).getFileHandle(`${sha256}.gguf`)).getFile();
    if (file.size !== stored.size) throw new ModelFileError(`The kept copy of ${stored.name} is ${file.size} bytes instead of ${stored.size}: delete it and add the file again.`);
    return { file, stored };
  }

  async remove(sha256: string): Promise<void> {
    const dir = await this.directory();
    for (const name of [`${sha256}.json`, `${sha256}.gguf`]) {
      try {
        await dir.removeEntry(name);
      } catch {
        // Already gone.
      }
    }
  }
}

async function openDirectory(): Promise<ModelFileDirectory> {
  const storage = globalThis.navigator?.storage as (StorageManager & { getDirectory?: () => Promise<FileSystemDirectoryHandle> }) | undefined;
  if (!storage?.getDirectory) throw new ModelFileError('This browser cannot keep model files (no Origin Private File System).');
  const root = await storage.getDirectory();
  return (await root.getDirectoryHandle('model-files', { create: true })) as unknown as ModelFileDirectory;
}

function validStored(value: unknown): StoredModelFile | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(v.sha256) || typeof v.name !== 'string' || typeof v.size !== 'number' || typeof v.added !== 'string') return null;
  return { sha256: v.sha256, name: v.name, size: v.size, added: v.added };
}
