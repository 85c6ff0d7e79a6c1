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
  // The regression game: two versions of a definition compared step by step, and the game as an ordinary definition (source text).
  'src/regression': { folders: ['src/regression', 'src/engine', 'src/sandbox'], packages: ['acorn'], forbiddenGlobals: /\b(document|window|indexedDB|localStorage|process|require)\s*[.(]/ },
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
    folders: ['src/cli', 'src/engine', 'src/formats', 'src/runs', 'src/sandbox', 'src/model', 'src/session', 'src/report', 'src/pool', 'src/why', 'src/replay', 'src/regression'],
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
  // src/regression: building the regression game runs both definitions' top level, in the sandbox.
  folders: ['src/engine', 'src/sandbox', 'src/formats', 'src/runs', 'src/session', 'src/why', 'src/pool', 'src/regression'],
  // The pool's contract, its worker-side helpers and the page's protocol (with the channel a waiting
  // round waits on); not the pools themselves.
  forbidFiles: /^src\/pool\/(node\/|page\/(?!(protocol|wait-channel)\.ts$))/,
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

describe('folder dependency rules, planted', () => {
  it('a planted import of a folder, a subfolder or a package the rule does not allow is refused', () => {
    expect(ruleProblems('src/engine', RULES['src/engine'], join(SRC, 'engine', 'batch.ts'), "import { x } from '../session/db.ts';\n")).toEqual(['src/engine/batch.ts imports src/session/db.ts']);
    expect(ruleProblems('src/cli', RULES['src/cli'], join(SRC, 'cli', 'main.ts'), "import { PageAnalysisPool } from '../pool/page/analysis-pool.ts';\n")).toEqual(['src/cli/main.ts imports src/pool/page/analysis-pool.ts']);
    expect(ruleProblems('src/cli', RULES['src/cli'], join(SRC, 'cli', 'main.ts'), "import { runStudy } from '../pool/run-study.ts';\n")).toEqual([]);
    expect(ruleProblems('src/report', RULES['src/report'], join(SRC, 'report', 'renderReport.ts'), "import { Chart } from 'chart.js';\n")).toEqual(['src/report/renderReport.ts imports package chart.js']);
  });

  it('a planted Node built-in is refused outside Node folders and the files allowed it', () => {
    const read = "import { readFileSync } from 'node:fs';\n";
    expect(ruleProblems('src/model', RULES['src/model'], join(SRC, 'model', 'model-host.ts'), read)).toEqual(['src/model/model-host.ts imports package node:fs']);
    expect(ruleProblems('src/model', RULES['src/model'], join(SRC, 'model', 'command-host.node.ts'), read)).toEqual([]);
    expect(ruleProblems('src/cli', RULES['src/cli'], join(SRC, 'cli', 'main.ts'), read)).toEqual([]);
  });

  it('a planted global the folder may not touch is refused; in a comment or a shipped template it is not code', () => {
    const file = join(SRC, 'engine', 'batch.ts');
    expect(ruleProblems('src/engine', RULES['src/engine'], file, 'const w = window.innerWidth;\n')).toEqual(['src/engine/batch.ts uses window.']);
    expect(ruleProblems('src/engine', RULES['src/engine'], file, '// window.innerWidth is the page\'s\nconst script = `document.title = "x"`;\n')).toEqual([]);
    expect(ruleProblems('src/session', RULES['src/session'], join(SRC, 'session', 'db.ts'), "const env = process.env;\n")).toEqual(['src/session/db.ts uses process.']);
  });
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
    expect(workerEntryProblems(entries, (file) => readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('are imported by the page for their types only, and started by URL', () => {
    expect(appFiles.filter((file) => !WORKER_ENTRY.test(file)).flatMap((file) => workerValueImports(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('planted imports that break these rules are refused', () => {
    const entry = join(APP, 'runs', 'why.worker.ts');
    const helper = join(APP, 'runs', 'why-work.ts');
    const texts: Record<string, string> = {
      [entry]: "import { x } from './why-work.ts';\nimport * as Comlink from 'comlink';\n",
      [helper]: "import { run } from '../../sandbox/index.ts';\nimport { RunsState } from '../runs/runs-state.svelte.ts';\nimport { mount } from 'svelte';\nconst w = window.name;\n",
    };
    expect(workerEntryProblems([entry], (file) => texts[file])).toEqual([
      'src/app/runs/why-work.ts imports src/app/runs/runs-state.svelte.ts',
      'src/app/runs/why-work.ts imports package svelte',
      'src/app/runs/why-work.ts uses window.',
    ]);
    texts[entry] = "import { PageAnalysisPool } from '../../pool/page/analysis-pool.ts';\nimport type { X } from '../../pool/page/protocol.ts';\n";
    expect(workerEntryProblems([entry], (file) => texts[file])).toEqual(['src/app/runs/why.worker.ts imports src/pool/page/analysis-pool.ts']);
    const page = join(APP, 'runs', 'why-run.svelte.ts');
    expect(workerValueImports(page, "import { api } from './why.worker.ts';\n")).toEqual(['src/app/runs/why-run.svelte.ts imports values from ./why.worker.ts']);
    expect(workerValueImports(page, "import type { WhyWorkerApi } from './why.worker.ts';\nimport url from '../analysis/analysis.worker.ts?worker&url';\n")).toEqual([]);
  });
});

/** What breaks the worker entries' rule in `entries` and the app modules of their folders that they import. */
function workerEntryProblems(entries: readonly string[], textOf: (file: string) => string): string[] {
  const problems: string[] = [];
  const checked = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (checked.has(file)) continue;
    checked.add(file);
    const text = textOf(file);
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
  return problems;
}

/** Value imports of a worker entry in a page module (its built URL, `?worker&url`, is allowed). */
function workerValueImports(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s([^;'"]*?)from\s*['"]([^'"]+\.worker\.ts)(\?[^'"]*)?['"]/g)) {
    // `?worker&url` gives the built worker's URL (the analysis worker is started from a frame), not its code.
    if (m[3] === '?worker&url') continue;
    if (!/^type\s/.test(m[1]) || m[3] !== undefined) problems.push(`${relative(ROOT, file)} imports values from ${m[2]}${m[3] ?? ''}`);
  }
  return problems;
}

/**
 * Feature folders with entry files: every other folder (tests, bench/ and e2e/ included) imports a
 * feature only through its entry, so what a feature offers is written in one file and its inner
 * files can move. A feature's `testing/` helpers are for test code only (tests, other `testing/`
 * folders, bench/, e2e/). `src/model` has a second entry for what needs Node (`index.node.ts`).
 */
const FEATURE_ENTRIES: Record<string, string[]> = {
  'src/why': ['index.ts'],
  'src/replay': ['index.ts'],
  'src/runs': ['index.ts'],
  'src/model': ['index.ts', 'index.node.ts'],
};

/** Test code: may use test support (`testing/` helpers) and Node. */
const isTestCode = (where: string) => /(\.test\.ts|test-helpers\.ts)$/.test(where) || /(^|\/)testing\//.test(where) || /^(bench|e2e)\//.test(where);

/** Where `file` reaches into a feature folder other than through its entry. */
function entryProblems(file: string, text: string): string[] {
  const where = relative(ROOT, file);
  const problems: string[] = [];
  for (const { spec } of imports(text)) {
    if (!spec.startsWith('.')) continue;
    const target = relative(ROOT, join(file, '..', spec.replace(/\?.*$/, '')));
    for (const [feature, entries] of Object.entries(FEATURE_ENTRIES)) {
      if (!target.startsWith(feature + '/') || where.startsWith(feature + '/')) continue;
      const inner = target.slice(feature.length + 1);
      if (entries.includes(inner)) continue;
      if (inner.startsWith('testing/') && isTestCode(where)) continue;
      problems.push(`${where} imports ${target}: import ${feature} through ${entries.map((e) => `${feature}/${e}`).join(' or ')}${inner.startsWith('testing/') ? ' (its testing/ helpers are for test code)' : ''}`);
    }
  }
  return problems;
}

/** Every source file of a folder, tests and test support included. */
function allSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' || name === 'fixtures' || name.startsWith('dist') ? [] : allSources(p);
    return /\.(ts|mjs|js|svelte)$/.test(name) ? [p] : [];
  });
}

describe('feature folders are imported through their entry files', () => {
  it('every file outside a feature imports it through its entry', () => {
    for (const [feature, entries] of Object.entries(FEATURE_ENTRIES)) for (const entry of entries) expect(statSync(join(ROOT, feature, entry)).isFile()).toBe(true);
    const problems = ['src', 'workers', 'bench', 'e2e'].flatMap((dir) => allSources(join(ROOT, dir))).flatMap((file) => entryProblems(file, readFileSync(file, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('a planted import of a feature\'s inner file, or of its test support from shipped code, is refused', () => {
    const page = join(SRC, 'app', 'runs', 'WhyPanel.svelte');
    expect(entryProblems(page, "<script lang=\"ts\">\n  import { explainDecision } from '../../why/method.ts';\n</script>\n")).toEqual(['src/app/runs/WhyPanel.svelte imports src/why/method.ts: import src/why through src/why/index.ts']);
    expect(entryProblems(page, "<script lang=\"ts\">\n  import { explainDecision } from '../../why/index.ts';\n</script>\n")).toEqual([]);
    const command = join(SRC, 'cli', 'main.ts');
    expect(entryProblems(command, "const { x } = await import('../model/command-host.node.ts');\n")).toEqual(['src/cli/main.ts imports src/model/command-host.node.ts: import src/model through src/model/index.ts or src/model/index.node.ts']);
    expect(entryProblems(command, "import { fakeEndpoint } from '../model/testing/fake-endpoint.ts';\n")).toHaveLength(1);
    expect(entryProblems(join(SRC, 'cli', 'cli.test.ts'), "import { fakeEndpoint } from '../model/testing/fake-endpoint.ts';\n")).toEqual([]);
    expect(entryProblems(join(ROOT, 'e2e', 'why.spec.ts'), "import { x } from '../src/runs/types.ts';\n")).toEqual(['e2e/why.spec.ts imports src/runs/types.ts: import src/runs through src/runs/index.ts']);
    expect(entryProblems(join(ROOT, 'bench', 'workloads', 'replay.ts'), "import { x } from '../../src/replay/testing/runs.ts';\n")).toEqual([]);
  });
});

/**
 * Test support, benchmarks and browser tests have rules too. A `testing/` helper of a folder
 * imports what that folder may (and other test support, the test packages, Node); bench/ and
 * e2e/ measure and drive the page through a browser, so they import nothing of src/app but its
 * test support, and never the command's modules (they run it as a process). Test support may also
 * run a definition in the sandbox and render a report (TEST_SUPPORT_EXTRA), as the tests it serves do.
 */
const TEST_PACKAGES = ['vitest', 'fake-indexeddb', '@playwright/test', 'tsx'];
const TEST_SUPPORT_EXTRA = ['src/sandbox', 'src/report'];

function testSupportProblems(file: string, text: string): string[] {
  const where = relative(ROOT, file);
  const problems: string[] = [];
  const folder = Object.keys(RULES).filter((f) => where.startsWith(f + '/')).sort((a, b) => b.length - a.length)[0];
  for (const { spec } of imports(text)) {
    if (spec.startsWith('.')) {
      const target = relative(ROOT, join(file, '..', spec.replace(/\?.*$/, '')));
      const inside = (f: string) => target === f || target.startsWith(f + '/');
      // Data files (fixtures) are read by anything.
      if (/\/fixtures\//.test(target)) continue;
      if (/^(bench|e2e)\//.test(where)) {
        if (/^src\/(cli|app)\//.test(target) && !/\/testing\//.test(target)) problems.push(`${where} imports ${target}`);
        continue;
      }
      const rule = RULES[folder];
      // Another folder's test support is allowed where that folder is.
      if (![...rule.folders, ...TEST_SUPPORT_EXTRA].some(inside) || (rule.forbid?.some(inside) && !/\/testing\//.test(target))) problems.push(`${where} imports ${target}`);
    } else if (!/^(bench|e2e)\//.test(where)) {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (!spec.startsWith('node:') && !TEST_PACKAGES.includes(pkg) && !RULES[folder].packages.includes(pkg)) problems.push(`${where} imports package ${spec}`);
    }
  }
  return problems;
}

describe('test support, bench/ and e2e/', () => {
  const testSupport = () => allSources(SRC).filter((file) => /\/testing\//.test(relative(ROOT, file)) && !/\.test\.ts$/.test(file));

  it('a testing/ helper imports what its folder may (and test support, test packages, Node)', () => {
    expect(testSupport().length).toBeGreaterThan(10);
    expect(testSupport().flatMap((file) => testSupportProblems(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('bench/ and e2e/ import nothing of the page or the command but their test support', () => {
    const problems = ['bench', 'e2e'].flatMap((dir) => allSources(join(ROOT, dir))).flatMap((file) => testSupportProblems(file, readFileSync(file, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('planted imports that break these rules are refused', () => {
    expect(testSupportProblems(join(SRC, 'engine', 'testing', 'games.ts'), "import { run } from '../../formats/index.ts';\n")).toEqual(['src/engine/testing/games.ts imports src/formats/index.ts']);
    expect(testSupportProblems(join(SRC, 'model', 'testing', 'fake-model.ts'), "import { x } from 'chart.js';\n")).toEqual(['src/model/testing/fake-model.ts imports package chart.js']);
    expect(testSupportProblems(join(SRC, 'model', 'testing', 'fake-model.ts'), "import { createServer } from 'node:http';\nimport { it } from 'vitest';\n")).toEqual([]);
    expect(testSupportProblems(join(ROOT, 'e2e', 'why.spec.ts'), "import { WhyRun } from '../src/app/runs/why-run.svelte.ts';\n")).toEqual(['e2e/why.spec.ts imports src/app/runs/why-run.svelte.ts']);
    expect(testSupportProblems(join(ROOT, 'bench', 'run.ts'), "import { main } from '../src/cli/main.ts';\n")).toEqual(['bench/run.ts imports src/cli/main.ts']);
    expect(testSupportProblems(join(ROOT, 'e2e', 'replay-page.spec.ts'), "import { tripRun } from '../src/app/replay/testing/trip-run.ts';\n")).toEqual([]);
  });
});

/**
 * Layers inside the page (src/app). The page is assembled once (PAGE_ASSEMBLY: `page.ts`, which
 * App.svelte and the tests call, and the two components at the top): it makes the state
 * classes (`*.svelte.ts`) and hands them down, so any other module imports another folder's state
 * class for its type only; the shared pieces (`common/`, `help/`) import nothing else of the page
 * but types; and nothing imports the assembly back.
 */
const PAGE_ASSEMBLY = ['src/app/App.svelte', 'src/app/StudyView.svelte', 'src/app/page.ts'];
const PAGE_SHARED = ['src/app/common', 'src/app/help'];

function pageLayerProblems(file: string, text: string): string[] {
  const where = relative(ROOT, file);
  const folderOf = (path: string) => path.split('/').slice(0, 3).join('/');
  const problems: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s([^;'"]*?)from\s*['"](\.[^'"?]+)/g)) {
    const clause = m[1];
    const target = relative(ROOT, join(file, '..', m[2]));
    if (!target.startsWith('src/app/') || folderOf(target) === folderOf(where)) continue;
    const typeOnly = /^type\s/.test(clause) || /^\{[^}]*\}\s*$/.test(clause.trim()) && clause.replace(/[{}]/g, '').split(',').map((s) => s.trim()).filter(Boolean).every((n) => n.startsWith('type '));
    if (PAGE_ASSEMBLY.includes(target) && where !== 'src/app/App.svelte') problems.push(`${where} imports the page's assembly ${target}`);
    if (PAGE_ASSEMBLY.includes(where) || typeOnly) continue;
    if (PAGE_SHARED.includes(folderOf(where))) problems.push(`${where} (shared by the page) imports values from ${target}`);
    // A value import of a capitalised name from a state module is the class itself (to construct it).
    else if (/\.svelte\.ts$/.test(target) && /(^|[{,]\s*)[A-Z]\w*\s*(,|}|as\b)/.test(clause.replace(/\btype\s+\w+/g, ''))) problems.push(`${where} imports the state class of another folder from ${target} (the page's assembly makes it; import its type)`);
  }
  return problems;
}

describe('layers inside the page', () => {
  it('state classes are made by the page\'s assembly, shared pieces import only types, nothing imports the assembly', () => {
    const problems = files(join(SRC, 'app')).flatMap((file) => pageLayerProblems(file, readFileSync(file, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('planted imports that break them are refused', () => {
    const view = join(SRC, 'app', 'replay', 'ReplayView.svelte');
    expect(pageLayerProblems(view, "<script lang=\"ts\">\n  import { RunsState } from '../runs/runs-state.svelte.ts';\n</script>\n")).toEqual(["src/app/replay/ReplayView.svelte imports the state class of another folder from src/app/runs/runs-state.svelte.ts (the page's assembly makes it; import its type)"]);
    expect(pageLayerProblems(view, "<script lang=\"ts\">\n  import type { RunsState } from '../runs/runs-state.svelte.ts';\n  import { parseRunsHash } from '../runs/runs-address.svelte.ts';\n</script>\n")).toEqual([]);
    expect(pageLayerProblems(join(SRC, 'app', 'common', 'FilePicker.svelte'), "<script lang=\"ts\">\n  import { describeImportError } from '../importing/describe-import-error.ts';\n</script>\n")).toEqual(['src/app/common/FilePicker.svelte (shared by the page) imports values from src/app/importing/describe-import-error.ts']);
    expect(pageLayerProblems(join(SRC, 'app', 'views', 'registry.ts'), "import StudyView from '../StudyView.svelte';\n")).toEqual(["src/app/views/registry.ts imports the page's assembly src/app/StudyView.svelte"]);
  });
});

/**
 * One model host in the page: only `app/model/page-model-host.svelte.ts` makes a `ModelHost` or
 * sends a chat request; every other page job opens a job of it (so each gets the Model panel's
 * endpoint, time limit, ask-before guard and the response store).
 */
const PAGE_MODEL_HOST = 'src/app/model/page-model-host.svelte.ts';

function pageModelHostProblems(file: string, text: string): string[] {
  const where = relative(ROOT, file);
  if (where === PAGE_MODEL_HOST) return [];
  const problems: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+(?!type\s)\{([^}]*)\}\s*from\s*['"]([^'"]*\/model\/index\.ts)['"]/g)) {
    const values = m[1].split(',').map((n) => n.trim()).filter((n) => n !== '' && !n.startsWith('type '));
    for (const name of values.filter((n) => /^(ModelHost|sendChat)\b/.test(n))) problems.push(`${where} imports ${name.split(/\s/)[0]}: open a job of the page's model host (${PAGE_MODEL_HOST})`);
  }
  return problems;
}

describe('one model host in the page', () => {
  it('no module of the page but the page model host makes a ModelHost or sends a chat request', () => {
    expect(files(join(SRC, 'app')).flatMap((file) => pageModelHostProblems(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('a planted host of its own is refused', () => {
    const file = join(SRC, 'app', 'runs', 'why-run.svelte.ts');
    expect(pageModelHostProblems(file, "import { endpointConfig, ModelHost } from '../../model/index.ts';\n")).toEqual([`src/app/runs/why-run.svelte.ts imports ModelHost: open a job of the page's model host (${PAGE_MODEL_HOST})`]);
    expect(pageModelHostProblems(file, "import { type ModelHost, endpointConfig } from '../../model/index.ts';\n")).toEqual([]);
    expect(pageModelHostProblems(join(ROOT, PAGE_MODEL_HOST), "import { ModelHost } from '../../model/index.ts';\n")).toEqual([]);
  });
});

/** The folders of src/ that ship code (`shipsCode`) and have no rule. */
function unruledFolders(folders: readonly string[], shipsCode: (name: string) => boolean): string[] {
  return folders.filter((name) => !(`src/${name}` in RULES) && shipsCode(name));
}

describe('the rules cover every folder', () => {
  it('each folder of src/ has a rule (src/hostile holds tests only)', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    expect(unruledFolders(folders, (name) => files(join(SRC, name)).length > 0)).toEqual([]);
  });

  it('a planted folder of shipped code without a rule is refused; one of tests only is not', () => {
    expect(unruledFolders(['engine', 'planted'], () => true)).toEqual(['planted']);
    expect(unruledFolders(['engine', 'planted'], (name) => name !== 'planted')).toEqual([]);
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

  // A number in a tracker, or a brief only the team has, tells a reader of the code nothing.
  const outside = /\b(issue|defect) #?\d+\b|\bseeds\/0\d\d|\bDESIGN(\.md| \d)/i;
  const citations = (file: string, text: string): string[] =>
    text.split('\n').flatMap((line, i) => {
      const hit = line.match(outside);
      return hit ? [`${relative(ROOT, file)}:${i + 1}: ${hit[0]}`] : [];
    });

  it('no file cites a tracker number or a document outside the repository', () => {
    const problems: string[] = [];
    for (const dir of ['src', 'workers', 'e2e', 'bench']) {
      for (const file of sources(join(ROOT, dir))) {
        if (file === import.meta.filename) continue;
        problems.push(...citations(file, readFileSync(file, 'utf8')));
      }
    }
    expect(problems).toEqual([]);
  });

  it('a planted citation of a tracker number or an outside document is refused', () => {
    const file = join(SRC, 'engine', 'batch.ts');
    const planted = '// as asked in issue 35\n/* see DESIGN.md */\n';
    expect(citations(file, planted)).toEqual(['src/engine/batch.ts:1: issue 35', 'src/engine/batch.ts:2: DESIGN.md']);
    expect(citations(file, '// the design of the batch stop\n')).toEqual([]);
  });
});
