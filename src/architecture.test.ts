import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Folder boundaries are dependency rules (Perfetto-style): each folder may import only from the
 * folders and packages listed here. The engine in particular stays pure TypeScript so Node,
 * workers and tests share it.
 */
/** `nodeBuiltins`: the folder runs only in Node (node: imports allowed); `nodeFiles`: only the files it matches may use Node. */
/** `forbid`: subfolders of its `folders` it may not import. A subfolder with a rule of its own follows that rule, not its parent's. */
const RULES: Record<string, { folders: string[]; packages: string[]; forbid?: string[]; forbiddenGlobals?: RegExp; nodeFiles?: RegExp; nodeBuiltins?: boolean }> = {
  'src/engine': { folders: ['src/engine'], packages: ['pure-rand'], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|self|postMessage|process|require)\s*[.(]/ },
  'src/formats': { folders: ['src/formats', 'src/engine', 'src/runs'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|process|require)\s*[.(]/ },
  // Runs score attributions with the engine's interval functions (Wilson), nothing else of it.
  'src/runs': { folders: ['src/runs', 'src/engine'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|self|postMessage|process|require)\s*[.(]/ },
  // Replaying recorded runs: a run becomes an ordinary definition (source text), below the page and the command.
  'src/replay': { folders: ['src/replay', 'src/engine', 'src/runs', 'src/formats', 'src/model'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|process|require)\s*[.(]/ },
  'src/sandbox': { folders: ['src/sandbox', 'src/engine', 'src/formats'], packages: ['ses', 'acorn'] },
  // The model host runs on a pool's owner (Node or the page): global fetch only; files named *.node.ts may use Node.
  'src/model': { folders: ['src/model', 'src/engine'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|process|require)\s*[.(]/, nodeFiles: /\.node\.ts$/ },
  'src/report': { folders: ['src/report', 'src/engine', 'src/session'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|process|require)\s*[.(]/ },
  // Sessions run in the page and in the command: IndexedDB only where the page has it, never Node.
  'src/session': { folders: ['src/session', 'src/engine', 'src/formats'], packages: ['idb'], forbiddenGlobals: /\b(document|process|require)\s*[.(]/ },
  // The analysis pools: their contract and the study run, pure like the engine, below both hosts.
  'src/pool': { folders: ['src/pool', 'src/engine'], packages: [], forbid: ['src/pool/node', 'src/pool/page', 'src/pool/worker'], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|self|postMessage|process|require)\s*[.(]/ },
  // What both kinds of analysis worker do alike: the sandbox, no host of its own (each entry passes its hooks).
  'src/pool/worker': { folders: ['src/pool', 'src/engine', 'src/sandbox'], packages: [], forbid: ['src/pool/node', 'src/pool/page'], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|self|postMessage|process|require)\s*[.(]/ },
  // The command's pool: Node by nature (its worker entries are in workers/).
  'src/pool/node': { folders: ['src/pool', 'src/engine'], packages: [], forbid: ['src/pool/page', 'src/pool/worker'], nodeBuiltins: true, forbiddenGlobals: /\b(document|window|indexedDB|localStorage)\s*[.(]/ },
  // The page's pool: Web Workers through Comlink, never the sandbox (its worker entry is in src/app).
  'src/pool/page': { folders: ['src/pool', 'src/engine'], packages: ['comlink'], forbid: ['src/pool/node', 'src/pool/worker'], forbiddenGlobals: /\b(process|require)\s*[.(]/ },
  'src/demos': { folders: ['src/demos', 'src/engine', 'src/formats', 'src/sandbox'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage)\s*[.(]/, nodeBuiltins: true },
  // The docs as static pages: a Vite plugin, run by the build and the dev server (Node).
  'src/docs-site': { folders: ['src/docs-site'], packages: ['vite'], nodeBuiltins: true },
  // Why this decision: one model call's context edited and rerun through the model host; runs in the page and the command.
  'src/why': { folders: ['src/why', 'src/engine', 'src/formats', 'src/runs', 'src/model'], packages: [], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|process|require)\s*[.(]/ },
  // The command: everything below it, never the page.
  'src/cli': {
    folders: ['src/cli', 'src/engine', 'src/formats', 'src/runs', 'src/sandbox', 'src/model', 'src/session', 'src/report', 'src/pool', 'src/why', 'src/replay'],
    forbid: ['src/pool/page', 'src/pool/worker'],
    packages: ['tsx'],
    forbiddenGlobals: /\b(document|window|indexedDB|localStorage)\s*[.(]/,
    nodeBuiltins: true,
  },
  // The page: everything below it, never the command, its Node pool or the sandbox (definitions
  // run only in the page's workers, see WORKER_ENTRY_RULE).
  'src/app': {
    folders: ['src/app', 'src/engine', 'src/formats', 'src/runs', 'src/model', 'src/session', 'src/report', 'src/why', 'src/replay', 'src/pool'],
    forbid: ['src/pool/node', 'src/pool/worker'],
    packages: ['svelte', 'comlink', 'chart.js', 'idb', '@wllama/wllama', '@codemirror/lang-javascript', '@codemirror/language', '@codemirror/state', '@codemirror/view'],
    forbiddenGlobals: /\b(process|require)\s*[.(]/,
  },
  // The command's worker entries (the build bundles them from here): thin wrappers of sandbox and
  // engine calls for NodeAnalysisPool; nothing of the page.
  workers: {
    folders: ['workers', 'src/engine', 'src/sandbox', 'src/pool'],
    forbid: ['src/pool/page'],
    packages: ['tsx'],
    nodeFiles: /\.(node\.ts|mjs)$/,
  },
};

/**
 * The page's worker entries (`*.worker.ts` in src/app, next to the client that starts them) and
 * the app modules they import: sandbox and engine calls, file reading, plain messages. They may
 * import the sandbox (nothing else of the page may), never Svelte, the DOM or another app folder;
 * the page imports them for their types only (a value import would pull the sandbox into the page).
 */
const WORKER_ENTRY = /\.worker\.ts$/;
const WORKER_ENTRY_RULE = {
  folders: ['src/engine', 'src/sandbox', 'src/formats', 'src/runs', 'src/session', 'src/why', 'src/pool'],
  // The pool's contract, its worker-side helpers and the page's protocol; not the pools themselves.
  forbidFiles: /^src\/pool\/(node\/|page\/(?!protocol\.ts$))/,
  packages: ['comlink'],
  forbiddenGlobals: /\b(document|window|localStorage|process|require)\s*[.(]/,
};

const SRC = join(import.meta.dirname);
const ROOT = join(SRC, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    // Test fixtures and test support never ship.
    if (statSync(p).isDirectory()) return name === 'fixtures' || name === 'testing' ? [] : files(p);
    // Test-only helpers may use Node; they never ship. Svelte components import like modules.
    return /\.(ts|mjs|js|svelte)$/.test(name) && !/(\.test\.ts|test-helpers\.ts)$/.test(name) ? [p] : [];
  });
}

function importsOf(text: string): string[] {
  return imports(text).map((found) => found.spec);
}

/** Every module a file names: imports, re-exports, dynamic imports, and `new URL(..., import.meta.url)` (how workers are started). */
function imports(text: string): { spec: string; typeOnly: boolean }[] {
  const out: { spec: string; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s([^;'"]*?)from\s*['"]([^'"]+)['"]/g)) out.push({ spec: m[2], typeOnly: /^type\s/.test(m[1]) });
  for (const m of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1], typeOnly: false });
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) out.push({ spec: m[1], typeOnly: false });
  for (const m of text.matchAll(/\bnew\s+URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g)) out.push({ spec: m[1], typeOnly: false });
  return out;
}

type Rule = (typeof RULES)[string];

/** What breaks `rule` in one file of `folder` (the file's path is absolute, its text as read). */
function ruleProblems(folder: string, rule: Rule, file: string, text: string): string[] {
  const problems: string[] = [];
  for (const spec of importsOf(text)) {
    if (spec.startsWith('.')) {
      const target = relative(ROOT, join(file, '..', spec));
      const inside = (f: string) => target === f || target.startsWith(f + '/');
      if (!rule.folders.some(inside) || rule.forbid?.some(inside)) problems.push(`${relative(ROOT, file)} imports ${target}`);
    } else {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (spec.startsWith('node:') && (rule.nodeBuiltins || rule.nodeFiles?.test(file))) continue;
      if (!rule.packages.includes(pkg)) problems.push(`${relative(ROOT, file)} imports package ${spec}`);
    }
  }
  // A module found by pattern at build time is an import no reader or tool can follow.
  if (/\bimport\.meta\.glob\b/.test(text)) problems.push(`${relative(ROOT, file)} imports through import.meta.glob`);
  if (rule.forbiddenGlobals && !rule.nodeFiles?.test(file)) {
    // Comments and template literals (inline page scripts shipped as text) are not engine code.
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/`[\s\S]*?`/g, '``').replace(/\/\/.*$/gm, '');
    const hit = code.match(rule.forbiddenGlobals);
    if (hit) problems.push(`${relative(ROOT, file)} uses ${hit[0]}`);
  }
  return problems;
}

describe('folder dependency rules', () => {
  for (const [folder, rule] of Object.entries(RULES)) {
    it(`${folder} imports only what it may`, () => {
      const problems: string[] = [];
      for (const file of files(join(ROOT, folder))) {
        // A subfolder with a rule of its own is checked by that rule.
        const where = relative(ROOT, file);
        if (Object.keys(RULES).some((other) => other.length > folder.length && where.startsWith(other + '/'))) continue;
        // The page's worker entries have a rule of their own (WORKER_ENTRY_RULE, below).
        if (folder === 'src/app' && WORKER_ENTRY.test(file)) continue;
        problems.push(...ruleProblems(folder, rule, file, readFileSync(file, 'utf8')));
      }
      expect(problems).toEqual([]);
    });
  }
});

describe('the page\'s workers', () => {
  const APP = join(SRC, 'app');
  const appFiles = files(APP);
  const entries = appFiles.filter((file) => WORKER_ENTRY.test(file));

  it('have their entries next to their clients in src/app (workers/ holds the command\'s only)', () => {
    expect(entries.map((file) => relative(ROOT, file)).sort()).toEqual(['src/app/analysis/analysis.worker.ts', 'src/app/audit/audit.worker.ts', 'src/app/importing/import.worker.ts', 'src/app/runs/why.worker.ts']);
    expect(readdirSync(join(ROOT, 'workers')).filter((name) => WORKER_ENTRY.test(name))).toEqual([]);
  });

  it('import only sandbox and engine code, and app modules of their own folder that do the same', () => {
    const problems: string[] = [];
    const checked = new Set<string>();
    const queue = [...entries];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (checked.has(file)) continue;
      checked.add(file);
      const text = readFileSync(file, 'utf8');
      for (const { spec } of imports(text)) {
        if (!spec.startsWith('.')) {
          if (!WORKER_ENTRY_RULE.packages.includes(spec)) problems.push(`${relative(ROOT, file)} imports package ${spec}`);
          continue;
        }
        const target = join(file, '..', spec);
        const where = relative(ROOT, target);
        if (WORKER_ENTRY_RULE.folders.some((f) => where.startsWith(f + '/')) && !WORKER_ENTRY_RULE.forbidFiles.test(where)) continue;
        if (join(target, '..') === join(file, '..') && /\.ts$/.test(target) && !/\.svelte(\.ts)?$/.test(target)) queue.push(target);
        else problems.push(`${relative(ROOT, file)} imports ${where}`);
      }
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      const hit = code.match(WORKER_ENTRY_RULE.forbiddenGlobals);
      if (hit) problems.push(`${relative(ROOT, file)} uses ${hit[0]}`);
    }
    expect(problems).toEqual([]);
  });

  it('are imported by the page for their types only, and started by URL', () => {
    const problems: string[] = [];
    for (const file of appFiles) {
      if (WORKER_ENTRY.test(file)) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s([^;'"]*?)from\s*['"]([^'"]+\.worker\.ts)(\?[^'"]*)?['"]/g)) {
        // `?worker&url` gives the built worker's URL (the analysis worker is started from a frame), not its code.
        if (m[3] === '?worker&url') continue;
        if (!/^type\s/.test(m[1]) || m[3] !== undefined) problems.push(`${relative(ROOT, file)} imports values from ${m[2]}${m[3] ?? ''}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the rules cover every folder', () => {
  it('each folder of src/ has a rule (src/hostile holds tests only)', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    const unruled = folders.filter((name) => !(`src/${name}` in RULES) && files(join(SRC, name)).length > 0);
    expect(unruled).toEqual([]);
  });
});


/**
 * Every import cycle among shipped modules (type-only imports included: a cycle of types still ties
 * the files' meaning together), each as one strongly connected component (Tarjan 1972).
 */
function importCycles(modules: readonly string[], textOf: (file: string) => string): string[][] {
  const known = new Set(modules);
  const edges = new Map<string, string[]>();
  for (const file of modules) {
    const out: string[] = [];
    for (const { spec } of imports(textOf(file))) {
      if (!spec.startsWith('.')) continue;
      const target = join(file, '..', spec.replace(/\?.*$/, ''));
      if (known.has(target)) out.push(target);
    }
    edges.set(file, out);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfImport = edges.get(v)!.includes(v);
      if (component.length > 1 || selfImport) cycles.push(component.map((f) => relative(ROOT, f)).sort());
    }
  };
  for (const file of modules) if (!index.has(file)) visit(file);
  return cycles;
}

describe('no import cycles', () => {
  it('no shipped module reaches itself through its imports, type-only ones included', () => {
    const modules = [...files(SRC), ...files(join(ROOT, 'workers'))];
    expect(importCycles(modules, (file) => readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('the cycle check finds a type-only cycle through a Svelte component', () => {
    const a = join(SRC, 'app', 'a.ts');
    const b = join(SRC, 'app', 'B.svelte');
    const c = join(SRC, 'app', 'c.ts');
    const texts: Record<string, string> = {
      [a]: "import type { B } from './B.svelte';\n",
      [b]: "<script lang=\"ts\">\n  import { c } from './c.ts';\n</script>\n",
      [c]: "import type { A } from './a.ts';\n",
    };
    expect(importCycles([a, b, c], (file) => texts[file])).toEqual([['src/app/B.svelte', 'src/app/a.ts', 'src/app/c.ts']]);
    texts[c] = '';
    expect(importCycles([a, b, c], (file) => texts[file])).toEqual([]);
  });
});

describe('the rules read Svelte components', () => {
  it('a component of the page that imports the command is refused', () => {
    const file = join(SRC, 'app', 'views', 'BatchView.svelte');
    const text = "<script lang=\"ts\">\n  import { run } from '../../cli/main.ts';\n</script>\n";
    expect(files(join(SRC, 'app')).some((f) => f.endsWith('.svelte'))).toBe(true);
    expect(ruleProblems('src/app', RULES['src/app'], file, text)).toEqual(['src/app/views/BatchView.svelte imports src/cli/main.ts']);
  });

  it('an import hidden behind import.meta.glob is refused', () => {
    const file = join(SRC, 'app', 'App.svelte');
    const text = "<script lang=\"ts\">\n  const found = import.meta.glob('./sessions/*.svelte', { eager: true });\n</script>\n";
    expect(ruleProblems('src/app', RULES['src/app'], file, text)).toEqual(['src/app/App.svelte imports through import.meta.glob']);
  });
});

describe('comments speak the code\'s own terms', () => {
  /** Every source file of the project, tests included (their names are read as much as the code). */
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return name === 'node_modules' || name === 'fixtures' ? [] : sources(p);
      return /\.(ts|mjs|js|svelte)$/.test(name) ? [p] : [];
    });

  it('no file cites a tracker number or a document outside the repository', () => {
    // A number in a tracker, or a brief only the team has, tells a reader of the code nothing.
    const outside = /\b(issue|defect) #?\d+\b|\bseeds\/0\d\d|\bDESIGN(\.md| \d)/i;
    const problems: string[] = [];
    for (const dir of ['src', 'workers', 'e2e', 'bench']) {
      for (const file of sources(join(ROOT, dir))) {
        if (file === import.meta.filename) continue;
        readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
          const hit = line.match(outside);
          if (hit) problems.push(`${relative(ROOT, file)}:${i + 1}: ${hit[0]}`);
        });
      }
    }
    expect(problems).toEqual([]);
  });
});
