// Bundles a TypeScript entry with esbuild into one cached ES module under node_modules/.cache,
// rebuilt only when one of its input files changed. Plain JavaScript, so the command's launcher
// can use it before any TypeScript loader exists. Node only.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bump when the build options below change, so old bundles are not reused. */
const BUNDLE_FORMAT = 2;

/** The project's root: the nearest folder above `fromUrl` whose package.json is agentblame's. */
export function projectRootFrom(fromUrl) {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, 'utf8')).name === 'agentblame') return dir;
      } catch {
        // not ours; keep climbing
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the agentblame project above ${fileURLToPath(fromUrl)}`);
    dir = up;
  }
}

function cacheDir(root) {
  for (const dir of [join(root, 'node_modules/.cache/agentblame'), join(tmpdir(), 'agentblame-cache')]) {
    try {
      mkdirSync(dir, { recursive: true });
      return dir;
    } catch {
      // Not writable (e.g. a read-only checkout): try the next place.
    }
  }
  throw new Error('no writable cache directory for bundles');
}

function isFresh(metaPath, bundlePath, esbuildVersion) {
  try {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8'));
    if (meta.format !== BUNDLE_FORMAT || meta.esbuild !== esbuildVersion) return false;
    statSync(bundlePath);
    return meta.inputs.every((input) => {
      const stat = statSync(input.path);
      return stat.size === input.size && stat.mtimeMs === input.mtimeMs;
    });
  } catch {
    return false;
  }
}

/**
 * URL of a fresh bundle of `entry` (a path relative to the project root), or null when esbuild
 * is not installed (callers then fall back to loading TypeScript through tsx).
 */
export function bundledEntry(root, entry, name) {
  const require = createRequire(join(root, 'package.json'));
  let esbuild;
  try {
    esbuild = require('esbuild');
  } catch {
    return null;
  }
  const dir = cacheDir(root);
  const bundlePath = join(dir, `${name}.mjs`);
  const metaPath = join(dir, `${name}.meta.json`);
  if (!isFresh(metaPath, bundlePath, esbuild.version)) {
    const result = esbuild.buildSync({
      entryPoints: [join(root, entry)],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      write: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: root,
      // Bundled packages written as CommonJS still call require(): give the module one.
      banner: { js: "import { createRequire as __agentblameRequire } from 'node:module'; const require = __agentblameRequire(import.meta.url);" },
    });
    const meta = {
      format: BUNDLE_FORMAT,
      esbuild: esbuild.version,
      inputs: Object.keys(result.metafile.inputs).map((input) => {
        const path = resolve(root, input);
        const stat = statSync(path);
        return { path, size: stat.size, mtimeMs: stat.mtimeMs };
      }),
    };
    // Write then rename, so a concurrent process never loads a half-written bundle.
    const unique = `${process.pid}-${Date.now()}`;
    writeFileSync(`${bundlePath}.${unique}`, result.outputFiles[0].text);
    writeFileSync(`${metaPath}.${unique}`, JSON.stringify(meta));
    renameSync(`${bundlePath}.${unique}`, bundlePath);
    renameSync(`${metaPath}.${unique}`, metaPath);
  }
  return pathToFileURL(bundlePath);
}
