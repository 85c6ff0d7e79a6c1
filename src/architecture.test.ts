import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Folder boundaries are dependency rules (Perfetto-style): each folder may import only from the
 * folders and packages listed here. The engine in particular stays pure TypeScript so Node,
 * workers and tests share it.
 */
/** `nodeBuiltins`: the folder runs only in Node (node: imports allowed); `nodeFiles`: only the files it matches may use Node. */
const RULES: Record<string, { folders: string[]; packages: string[]; forbiddenGlobals?: RegExp; nodeFiles?: RegExp; nodeBuiltins?: boolean }> = {
  'src/engine': { folders: ['src/engine'], packages: ['pure-rand'], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|self|postMessage|process|require)\s*[.(]/ },
  'src/formats': { folders: ['src/formats', 'src/engine', 'src/runs'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|process|require)\s*[.(]/ },
  'src/runs': { folders: ['src/runs'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|self|postMessage|process|require)\s*[.(]/ },
  'src/sandbox': { folders: ['src/sandbox', 'src/engine', 'src/formats'], packages: ['ses', 'acorn'] },
  // The model host runs on a pool's owner (Node or the page): global fetch only; files named *.node.ts may use Node.
  'src/model': { folders: ['src/model', 'src/engine'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|process|require)\s*[.(]/, nodeFiles: /\.node\.ts$/ },
  'src/report': { folders: ['src/report', 'src/engine', 'src/session'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|process|require)\s*[.(]/ },
  // Sessions run in the page and in the command: IndexedDB only where the page has it, never Node.
  'src/session': { folders: ['src/session', 'src/engine', 'src/formats'], packages: ['idb'], forbiddenGlobals: /\b(document|process|require)\s*[.(]/ },
  // The command's pool: Node by nature (its worker entries are in workers/).
  'src/node': { folders: ['src/node', 'src/engine'], packages: [], nodeBuiltins: true, forbiddenGlobals: /\b(document|window|indexedDB|localStorage)\s*[.(]/ },
  'src/demos': { folders: ['src/demos', 'src/engine', 'src/formats', 'src/sandbox'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage)\s*[.(]/, nodeBuiltins: true },
  // The docs as static pages: a Vite plugin, run by the build and the dev server (Node).
  'src/docs-site': { folders: ['src/docs-site'], packages: ['vite'], nodeBuiltins: true },
  // The command: everything below it, never the page.
  'src/cli': {
    folders: ['src/cli', 'src/engine', 'src/formats', 'src/runs', 'src/sandbox', 'src/model', 'src/session', 'src/report', 'src/node'],
    packages: ['tsx'],
    forbiddenGlobals: /\b(document|window|indexedDB|localStorage)\s*[.(]/,
    nodeBuiltins: true,
  },
  // The page: everything below it, never the command or its Node pool. It creates the workers (workers/).
  'src/app': {
    folders: ['src/app', 'src/engine', 'src/formats', 'src/runs', 'src/model', 'src/session', 'src/report', 'workers'],
    packages: ['svelte', 'comlink', 'chart.js', 'idb', '@codemirror/lang-javascript', '@codemirror/language', '@codemirror/state', '@codemirror/view'],
    forbiddenGlobals: /\b(process|require)\s*[.(]/,
  },
  // Worker entries stay thin: they wrap sandbox and engine calls for the pools (and read files for the page).
  workers: {
    folders: ['workers', 'src/engine', 'src/sandbox', 'src/formats', 'src/runs', 'src/session', 'src/node', 'src/app/analysis', 'src/app/importing'],
    packages: ['comlink', 'tsx'],
    nodeFiles: /\.(node\.ts|mjs)$/,
  },
};

const SRC = join(import.meta.dirname);
const ROOT = join(SRC, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    // Test fixtures and test support never ship.
    if (statSync(p).isDirectory()) return name === 'fixtures' || name === 'testing' ? [] : files(p);
    // Test-only helpers may use Node; they never ship.
    return /\.(ts|mjs|js)$/.test(name) && !/(\.test\.ts|test-helpers\.ts)$/.test(name) ? [p] : [];
  });
}

function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;'"]*?from\s*['"]([^'"]+)['"]/g)) out.push(m[1]);
  for (const m of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) out.push(m[1]);
  return out;
}

describe('folder dependency rules', () => {
  for (const [folder, rule] of Object.entries(RULES)) {
    it(`${folder} imports only what it may`, () => {
      const problems: string[] = [];
      for (const file of files(join(ROOT, folder))) {
        const text = readFileSync(file, 'utf8');
        for (const spec of importsOf(text)) {
          if (spec.startsWith('.')) {
            const target = relative(ROOT, join(file, '..', spec));
            if (!rule.folders.some((f) => target === f || target.startsWith(f + '/'))) problems.push(`${relative(ROOT, file)} imports ${target}`);
          } else {
            const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
            if (spec.startsWith('node:') && (rule.nodeBuiltins || rule.nodeFiles?.test(file))) continue;
            if (!rule.packages.includes(pkg)) problems.push(`${relative(ROOT, file)} imports package ${spec}`);
          }
        }
        if (rule.forbiddenGlobals && !rule.nodeFiles?.test(file)) {
          // Comments and template literals (inline page scripts shipped as text) are not engine code.
          const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/`[\s\S]*?`/g, '``').replace(/\/\/.*$/gm, '');
          const hit = code.match(rule.forbiddenGlobals);
          if (hit) problems.push(`${relative(ROOT, file)} uses ${hit[0]}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

describe('the rules cover every folder', () => {
  it('each folder of src/ has a rule (src/hostile holds tests only)', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    const unruled = folders.filter((name) => !(`src/${name}` in RULES) && files(join(SRC, name)).length > 0);
    expect(unruled).toEqual([]);
  });
});

