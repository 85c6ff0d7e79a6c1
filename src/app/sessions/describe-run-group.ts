import type { StoredRunGroup } from '../../session/run-files.ts';

/** "refund.trace.json", or "184 files in whowhen/" when every file sits in one folder, else "3 files: a.json, b.json, …". */
export function runGroupName(group: Pick<StoredRunGroup, 'files'>): string {
  const names = group.files.map((file) => file.fileName);
  if (names.length === 1) return names[0];
  const folder = names[0].includes('/') ? names[0].slice(0, names[0].indexOf('/') + 1) : '';
  if (folder !== '' && names.every((name) => name.startsWith(folder))) return `${names.length} files in ${folder}`;
  return `${names.length} files: ${names.slice(0, 2).join(', ')}${names.length > 2 ? ', …' : ''}`;
}

/** "12 runs · 1.4 MB": how many runs the files hold and the bytes kept. */
export function runGroupSize(group: Pick<StoredRunGroup, 'files' | 'size'>): string {
  const runs = group.files.reduce((sum, file) => sum + file.runIds.length, 0);
  const bytes = group.size < 1024 * 1024 ? `${Math.max(1, Math.round(group.size / 1024))} kB` : `${(group.size / (1024 * 1024)).toFixed(1)} MB`;
  return `${runs} ${runs === 1 ? 'run' : 'runs'} · ${bytes}`;
}
