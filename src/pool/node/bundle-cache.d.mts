export function projectRootFrom(fromUrl: string | URL): string;
export function bundledEntry(root: string, entry: string, name: string): URL | null;
