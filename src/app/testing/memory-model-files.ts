import type { ModelFileDirectory } from '../model/in-page/model-files.ts';

/** An in-memory stand-in for the OPFS folder the in-page model keeps its files in. */
export function memoryDirectory(): ModelFileDirectory & { names(): string[] } {
  const files = new Map<string, Blob>();
  return {
    names: () => [...files.keys()].sort(),
    async getFileHandle(name, options) {
      if (!files.has(name) && !options?.create) throw new Error(`no file ${name}`);
      return {
        getFile: async () => new File([files.get(name) ?? new Blob([])], name),
        createWritable: async () => {
          const parts: (Blob | BufferSource | string)[] = [];
          return { write: async (data) => void parts.push(data), close: async () => void files.set(name, new Blob(parts as BlobPart[])) };
        },
      };
    },
    async removeEntry(name) {
      files.delete(name);
    },
    async *values() {
      for (const name of files.keys()) yield { kind: 'file', name };
    },
  };
}
