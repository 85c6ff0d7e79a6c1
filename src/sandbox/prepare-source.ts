import { parse, type Node, type Program } from 'acorn';
import { DefinitionError } from './definition-error.ts';
import { deferCaseBuilding, isCasesProperty } from './deferred-cases.ts';
import { applyEdits, lineKeepingEdit, type ColumnShift, type SourceEdit } from './source-edits.ts';
import { formatPosition, positionAt } from './source-position.ts';

/** The binding the rewritten `export default` assigns; user code cannot plausibly collide with it. */
export const DEFAULT_BINDING = '__agentblame_default_export__';

/** The user's file rewritten into a script body, with what is needed to map positions back. */
export interface PreparedSource {
  /** Statements for a function body: the user's code with `export default X` turned into a const. */
  body: string;
  /** Where the rewrite moved columns (every line keeps its number); see originalColumn. */
  shifts: ColumnShift[];
  /**
   * Where the exported object's inline `cases: EXPR` has EXPR in the user's source, when nothing
   * but reading `cases` can evaluate it (see withoutListedCases); null otherwise.
   */
  listedCases: { start: number; end: number } | null;
}

/**
 * Text the SES shim refuses to evaluate anywhere in a source, strings and comments included (a
 * lexical check that blocks dynamic import, direct eval and HTML-comment parsing tricks). The
 * patterns are the ones in ses/src/transforms.js; we look for them first so the user gets a line
 * and column instead of SES's bare "rejected at <unknown>:3".
 */
const SES_REJECTED_TEXT: readonly { pattern: RegExp; what: string; why: string }[] = [
  { pattern: /<!--|-->/, what: 'an HTML comment marker', why: 'it parses differently in browsers' },
  {
    pattern: /(^|[^.]|\.\.\.)\bimport(\s*(?:\(|\/[/*]))/,
    what: 'a dynamic import',
    why: 'definitions may not load code',
  },
  { pattern: /(^|[^.])\beval(\s*\()/, what: 'a direct eval call', why: 'definitions may not evaluate code' },
];

/**
 * Parse a pipeline definition (an ES module with one `export default` and no imports) and
 * rewrite it into statements a Compartment can evaluate inside a function body. Every line stays
 * where it was, so positions in later errors still point into the user's file.
 * Throws DefinitionError with `file:line:column` for syntax errors and forbidden constructs.
 */
export function prepareSource(source: string, fileName: string): PreparedSource {
  const program = parseModule(source, fileName);
  const exportNode = findDefaultExport(program, source, fileName);
  rejectForbiddenNodes(program, source, fileName);
  rejectSesRejectedText(source, fileName);

  const declaration = (exportNode as Node & { declaration: Node }).declaration;
  const lazy = lazyCases(source, declaration);
  const { text, shifts } = applyEdits(source, [
    lineKeepingEdit(source, exportNode.start, declaration.start, `const ${DEFAULT_BINDING} = (`),
    ...lazy,
    ...deferCaseBuilding(source, program, exportNode, declaration),
    lineKeepingEdit(source, declaration.end, exportNode.end, ');'),
  ]);
  return { body: text, shifts, listedCases: lazy.length > 0 ? listedCasesRange(declaration) : null };
}

/**
 * The inline cases' expression, if only the `cases` getter can ever evaluate it: the getter is
 * called with the exported object as `this` only by whoever reads `cases`, but another accessor
 * of that object (`get name() { return this.cases.length }`) would read it too, so then none.
 */
function listedCasesRange(declaration: Node): { start: number; end: number } | null {
  const properties = (declaration as Node & { properties: Node[] }).properties;
  const cases = properties.find(isCasesProperty)!;
  const accessor = properties.some((p) => p !== cases && p.type === 'Property' && (p as Node & { kind: string }).kind !== 'init');
  return accessor ? null : { start: cases.value.start, end: cases.value.end };
}

/**
 * An inline `cases: EXPR` of the exported object turned into `get cases() { return (EXPR); }`.
 * Every case is analysed on a fresh instance of the definition (its top level runs again), and
 * only the first instance reads the cases: evaluated eagerly, a definition listing n cases would
 * build them n times over (O(n^2)). The getter runs EXPR only when read, so each later instance
 * costs as much as a definition without cases. Cases given by name: see deferCaseBuilding.
 */
function lazyCases(source: string, declaration: Node): SourceEdit[] {
  if (declaration.type !== 'ObjectExpression') return [];
  const cases = (declaration as Node & { properties: Node[] }).properties.find(isCasesProperty);
  if (cases === undefined || cases.shorthand || cases.value.type === 'Identifier') return [];
  return [lineKeepingEdit(source, cases.start, cases.value.start, 'get cases() { return ('), lineKeepingEdit(source, cases.value.end, cases.end, '); }')];
}

function parseModule(source: string, fileName: string): Program {
  try {
    return parse(source, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      // Positions come from offsets (positionAt) and acorn's own error.loc; line objects on every
      // node would double the tree of a definition listing 300 000 cases (0.5 GB -> 0.8 GB).
      locations: false,
      // The body ends up inside a plain function, where a hashbang line cannot appear.
      allowHashBang: false,
    });
  } catch (error) {
    const loc = (error as { loc?: { line: number; column: number } }).loc;
    const message = error instanceof Error ? error.message.replace(/\s*\(\d+:\d+\)$/, '') : String(error);
    const where = loc ? formatPosition(fileName, { line: loc.line, column: loc.column + 1 }) : fileName;
    throw new DefinitionError(`${where}: syntax error: ${message}`);
  }
}

function findDefaultExport(program: Program, source: string, fileName: string): Node {
  let found: Node | undefined;
  for (const statement of program.body) {
    const where = formatPosition(fileName, positionAt(source, statement.start));
    switch (statement.type) {
      case 'ImportDeclaration':
        throw new DefinitionError(`${where}: imports are not allowed in a pipeline definition (it must be self-contained)`);
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
        throw new DefinitionError(`${where}: only one \`export default { ... }\` is allowed, no other exports`);
      case 'ExportDefaultDeclaration':
        if (found) throw new DefinitionError(`${where}: a second \`export default\`; a definition has exactly one`);
        found = statement;
        break;
      default:
        break;
    }
  }
  if (!found) {
    throw new DefinitionError(`${fileName}: no \`export default { name, steps, metric }\` found`);
  }
  return found;
}

const FUNCTION_NODES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/**
 * Dynamic import and import.meta can occur anywhere in the tree; top-level await (valid in a
 * module, but our body runs inside a plain function) anywhere outside a function. Walk it all.
 */
function rejectForbiddenNodes(program: Program, source: string, fileName: string): void {
  const stack: { node: unknown; inFunction: boolean }[] = [{ node: program, inFunction: false }];
  while (stack.length > 0) {
    const { node, inFunction } = stack.pop()!;
    if (Array.isArray(node)) {
      for (const child of node) stack.push({ node: child, inFunction });
      continue;
    }
    if (!isNode(node)) continue;
    const where = () => formatPosition(fileName, positionAt(source, node.start));
    if (node.type === 'ImportExpression' || node.type === 'MetaProperty') {
      const what = node.type === 'ImportExpression' ? 'import()' : source.slice(node.start, node.end);
      throw new DefinitionError(`${where()}: ${what} is not allowed in a pipeline definition`);
    }
    const topLevelAwait = node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && (node as Node & { await?: boolean }).await);
    if (topLevelAwait && !inFunction) {
      throw new DefinitionError(`${where()}: top-level await is not allowed: a definition is evaluated synchronously`);
    }
    const childInFunction = inFunction || FUNCTION_NODES.has(node.type);
    for (const key in node) {
      if (key === 'loc') continue;
      const child = (node as unknown as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') stack.push({ node: child, inFunction: childInFunction });
    }
  }
}

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && typeof (value as Node).type === 'string';
}

export function rejectSesRejectedText(source: string, fileName: string): void {
  for (const { pattern, what, why } of SES_REJECTED_TEXT) {
    const match = pattern.exec(source);
    if (!match) continue;
    // Skip the one-character context some patterns capture before the word itself.
    const offset = match.index + (match[1]?.length ?? 0);
    const where = formatPosition(fileName, positionAt(source, offset));
    const text = match[0].slice(match[1]?.length ?? 0).trim();
    throw new DefinitionError(
      `${where}: the text "${text}" looks like ${what}, which the sandbox rejects anywhere in the file, ` +
        `strings and comments included (${why}); spell it differently, e.g. split the string`,
    );
  }
}
