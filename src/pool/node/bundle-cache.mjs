// Bundles a TypeScript entry with esbuild into one cached ES module under node_modules/.cache,
// keyed by content: the bundle's name holds a hash of every input file's text (paths relative to
// the project root), so a copied or moved checkout runs its own code, never another tree's.
// Plain JavaScript, so the command's launcher can use it before any TypeScript loader exists.
// Node only.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bump when the build options below change, so old bundles are not reused. */
const BUNDLE_FORMAT = 3;

/** Bundles of one entry kept in the cache (other checkouts, other versions), newest first; older ones are removed. */
const KEPT_BUNDLES = 6;

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

/**
 * The content key of a bundle: a hash of the build's format, esbuild's version, the entry, and each
 * input's path (relative to the root) and text. Null when an input cannot be read (it moved: rebuild).
 */
function contentKey(root, entry, esbuildVersion, inputs) {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([BUNDLE_FORMAT, esbuildVersion, entry]));
  for (const input of inputs) {
    let text;
    try {
      text = readFileSync(resolve(root, input));
    } catch {
      return null;
    }
    hash.update(`\0${input}\0${text.length}\0`);
    hash.update(text);
  }
  return hash.digest('hex').slice(0, 24);
}

/** The inputs of the last build of `name` (relative paths), or null. */
function lastInputs(listPath) {
  try {
    const list = JSON.parse(readFileSync(listPath, 'utf8'));
    return list.format === BUNDLE_FORMAT && Array.isArray(list.inputs) ? list.inputs : null;
  } catch {
    return null;
  }
}

/** Removes all but the newest KEPT_BUNDLES bundles of `name` (a process still running an old one has it loaded). */
function prune(dir, name) {
  try {
    const bundles = readdirSync(dir)
      .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.mjs'))
      .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of bundles.slice(KEPT_BUNDLES)) unlinkSync(join(dir, f));
    // The path-keyed bundle and its list of absolute paths, from before bundles were keyed by content.
    for (const f of [`${name}.mjs`, `${name}.meta.json`]) if (existsSync(join(dir, f))) unlinkSync(join(dir, f));
  } catch {
    // Another process pruned first, or the folder is not ours to clean: harmless.
  }
}

/**
 * URL of a bundle of `entry` (a path relative to the project root) built from the root's current
 * files, or null when esbuild is not installed (callers then fall back to loading TypeScript
 * through tsx). Keyed by content: the inputs of the last build are hashed as they are now; a
 * bundle of that hash is reused, otherwise one is built (and named by its own inputs' hash).
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
  const listPath = join(dir, `${name}.inputs.json`);
  const inputs = lastInputs(listPath);
  const key = inputs && contentKey(root, entry, esbuild.version, inputs);
  if (key && existsSync(join(dir, `${name}-${key}.mjs`))) return pathToFileURL(join(dir, `${name}-${key}.mjs`));
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
  // esbuild names inputs relative to absWorkingDir: the root.
  const built = Object.keys(result.metafile.inputs).sort();
  const builtKey = contentKey(root, entry, esbuild.version, built) ?? 'unkeyed';
  const bundlePath = join(dir, `${name}-${builtKey}.mjs`);
  // Write then rename, so a concurrent process never loads a half-written bundle.
  const unique = `${process.pid}-${Date.now()}`;
  writeFileSync(`${bundlePath}.${unique}`, result.outputFiles[0].text);
  renameSync(`${bundlePath}.${unique}`, bundlePath);
  writeFileSync(`${listPath}.${unique}`, JSON.stringify({ format: BUNDLE_FORMAT, inputs: built }));
  renameSync(`${listPath}.${unique}`, listPath);
  prune(dir, name);
  return pathToFileURL(bundlePath);
}
