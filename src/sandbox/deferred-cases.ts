import type { Node, Program } from 'acorn';
import { lineKeepingEdit, type SourceEdit } from './source-edits.ts';

/**
 * Every case is analysed on a fresh instance of the definition (its top level
 * runs again, so no state carries over between cases), and only the first instance reads the
 * definition's own cases. A definition whose top level builds its n cases
 *
 *     const cases = [];
 *     for (let i = 0; i < 300000; i++) cases.push({ id: 'c' + i, inputs: { i } });
 *     export default { ..., cases };
 *
 * therefore built them n times over, O(n^2). This turns the statements that build `cases` into
 * hoisted functions that only the `cases` getter calls, so later instances skip them:
 *
 *     let cases; function __agentblame_cases_0__() { cases = ([]); }
 *     function __agentblame_cases_1__() { for (...) cases.push(...); }
 *     export default { ..., get cases() { __agentblame_cases_0__(); __agentblame_cases_1__(); return cases; } };
 *
 * Only when it cannot change what the definition does (anything else is left as written, and still
 * costs O(n) per case): the exported `cases` is a top-level binding declared alone, mentioned by
 * no step, metric or other statement than the ones building it; those statements assign nothing
 * but their own variables and the cases; and nothing they read (directly or through the top-level
 * functions and values they use) is assigned anywhere else. Calling a method that changes some
 * other object while building the cases is not detected: docs/security.md says not to.
 * Edits stay on their lines, so positions in errors still point into the user's file.
 */
export function deferCaseBuilding(source: string, program: Program, exportNode: Node, declaration: Node): SourceEdit[] {
  if (declaration.type !== 'ObjectExpression') return [];
  const casesProperty = (declaration as ObjectNode).properties.find(isCasesProperty);
  if (casesProperty === undefined || casesProperty.value.type !== 'Identifier') return [];
  const name = (casesProperty.value as IdentifierNode).name;

  const statements = program.body.filter((statement) => statement !== exportNode) as Node[];
  const declaredBy = new Map<string, Node>();
  for (const statement of statements) for (const declared of topLevelNames(statement)) declaredBy.set(declared, statement);
  const declarationOfCases = declaredBy.get(name);
  if (declarationOfCases?.type !== 'VariableDeclaration') return [];
  const declarators = (declarationOfCases as Node & { declarations: (Node & { id: Node; init: Node | null })[] }).declarations;
  if (declarators.length !== 1 || declarators[0].id.type !== 'Identifier') return [];

  // The builders: every top-level statement that mentions the cases, none before their declaration.
  const builders = statements.filter((statement) => namesIn(statement).has(name));
  if (builders[0] !== declarationOfCases) return [];
  if (builders.slice(1).some((statement) => DECLARATIONS.has(statement.type))) return [];
  // The exported object mentions the cases only as `cases`.
  const otherProperties = (declaration as ObjectNode).properties.filter((p) => p !== casesProperty);
  if (otherProperties.some((property) => namesIn(property).has(name))) return [];

  const own = new Set<string>();
  const assigned = new Set<string>();
  for (const statement of builders) {
    if (hasFunctionScopedVar(statement, statement === declarationOfCases)) return [];
    collectDeclared(statement, own);
    collectAssigned(statement, assigned);
  }
  own.delete(name);
  if ([...own].some((local) => declaredBy.has(local))) return [];
  if (assigned.has(UNKNOWN_TARGET) || [...assigned].some((target) => target !== name && !own.has(target))) return [];
  // Builders' own names are not top-level ones (checked above), so they never count as reads.
  const buildersOnly = new Map([...declaredBy].filter(([declared]) => declared !== name));
  if (readsChangedState(builders, statements, exportNode, otherProperties, buildersOnly)) return [];
  return rewrite(source, builders, declarators[0], casesProperty, name);
}

type IdentifierNode = Node & { name: string };
type PropertyNode = Node & { key: Node & { name?: string; value?: unknown }; value: Node; kind: string; computed: boolean; method: boolean; shorthand: boolean };
type ObjectNode = Node & { properties: PropertyNode[] };

const DECLARATIONS = new Set(['VariableDeclaration', 'FunctionDeclaration', 'ClassDeclaration']);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
/** An assignment whose target is not a name (`f().x = 1`): nothing can be proved about it. */
const UNKNOWN_TARGET = '\u0000unknown';

/** The exported object's `cases: ...` (or shorthand `cases`) property, as lazyCases looks for it. */
export function isCasesProperty(p: Node): p is PropertyNode {
  const property = p as PropertyNode;
  return property.type === 'Property' && property.kind === 'init' && !property.computed && !property.method && (property.key.name === 'cases' || property.key.value === 'cases');
}

function rewrite(source: string, builders: Node[], declarator: Node & { id: Node; init: Node | null }, casesProperty: PropertyNode, name: string): SourceEdit[] {
  const builder = (k: number) => `__agentblame_cases_${k}__`;
  const [declarationOfCases, ...rest] = builders;
  const edits: SourceEdit[] = declarator.init
    ? [
        lineKeepingEdit(source, declarationOfCases.start, declarator.init.start, `let ${name}; function ${builder(0)}() { ${name} = (`),
        lineKeepingEdit(source, declarator.init.end, declarationOfCases.end, '); }'),
      ]
    : [lineKeepingEdit(source, declarationOfCases.start, declarationOfCases.end, `let ${name}; function ${builder(0)}() { ${name} = undefined; }`)];
  rest.forEach((statement, k) => {
    edits.push({ start: statement.start, end: statement.start, text: `function ${builder(k + 1)}() { ` }, { start: statement.end, end: statement.end, text: ' }' });
  });
  // Each read builds the cases afresh (the first statement starts them over), so a second read
  // gives the same cases, not twice as many.
  const calls = builders.map((_, k) => `${builder(k)}(); `).join('');
  edits.push(lineKeepingEdit(source, casesProperty.start, casesProperty.end, `get cases() { ${calls}return ${name}; }`));
  return edits;
}

/**
 * Whether moving the builders after the rest of the top level could change what they build: they
 * read (directly, or through the top-level declarations they use, transitively) something that
 * is assigned outside them, or that top-level code running after the first of them uses.
 */
function readsChangedState(builders: Node[], statements: Node[], exportNode: Node, otherProperties: Node[], declaredBy: Map<string, Node>): boolean {
  const reads = closure(builders.flatMap((builder) => [...namesIn(builder)]), declaredBy);
  if (reads.size === 0) return false;
  const assignedElsewhere = new Set<string>();
  for (const statement of [...statements, exportNode]) if (!builders.includes(statement)) collectAssigned(statement, assignedElsewhere);
  if (assignedElsewhere.has(UNKNOWN_TARGET) || [...reads].some((read) => assignedElsewhere.has(read))) return true;
  const later = statements.filter((s) => s.start > builders[0].start && !builders.includes(s) && s.type !== 'FunctionDeclaration');
  return [...later, ...otherProperties].some((node) => [...closure([...namesIn(node, true)], declaredBy)].some((used) => reads.has(used)));
}

/**
 * The definition's own top-level names among `names` and, transitively, among those their
 * declarations mention (a function's whole body: calling it may run any of it).
 */
function closure(names: Iterable<string>, declaredBy: Map<string, Node>): Set<string> {
  const found = new Set<string>();
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.pop()!;
    const declaration = declaredBy.get(name);
    if (declaration === undefined || found.has(name)) continue;
    found.add(name);
    queue.push(...namesIn(declaration));
  }
  return found;
}

/** Names a top-level statement declares in the definition's scope. */
function topLevelNames(statement: Node): string[] {
  if (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') {
    const id = (statement as Node & { id: IdentifierNode | null }).id;
    return id ? [id.name] : [];
  }
  if (statement.type !== 'VariableDeclaration') return [];
  const names = new Set<string>();
  for (const declarator of (statement as Node & { declarations: (Node & { id: Node })[] }).declarations) patternNames(declarator.id, names);
  return [...names];
}

/**
 * Every identifier in a subtree that is a name (not a property key, member name or label);
 * `runsNow`: only those outside nested functions (what evaluating the subtree itself runs).
 */
function namesIn(root: Node, runsNow = false): Set<string> {
  const names = new Set<string>();
  walk(root, (node) => {
    if (node.type === 'Identifier') names.add((node as IdentifierNode).name);
  }, runsNow);
  return names;
}

/** Names declared anywhere inside (variables, functions, classes, parameters, catch clauses). */
function collectDeclared(root: Node, into: Set<string>): void {
  walk(root, (node) => {
    const n = node as Node & { id?: Node | null; params?: Node[]; param?: Node | null };
    if (node.type === 'VariableDeclarator' && n.id) patternNames(n.id, into);
    if ((FUNCTIONS.has(node.type) || node.type === 'ClassDeclaration' || node.type === 'ClassExpression') && n.id) patternNames(n.id, into);
    if (n.params) for (const param of n.params) patternNames(param, into);
    if (node.type === 'CatchClause' && n.param) patternNames(n.param, into);
  });
}

/** Root names of every assignment target inside (`x = `, `x.y.z = `, `x++`, `delete x.y`, `for (x of ...)`). */
function collectAssigned(root: Node, into: Set<string>): void {
  walk(root, (node) => {
    const n = node as Node & { left?: Node; argument?: Node; operator?: string };
    if (node.type === 'AssignmentExpression' && n.left) targetNames(n.left, into);
    else if (node.type === 'UpdateExpression' && n.argument) targetNames(n.argument, into);
    else if (node.type === 'UnaryExpression' && n.operator === 'delete' && n.argument) targetNames(n.argument, into);
    else if ((node.type === 'ForInStatement' || node.type === 'ForOfStatement') && n.left && n.left.type !== 'VariableDeclaration') targetNames(n.left, into);
  });
}

function targetNames(target: Node, into: Set<string>): void {
  let node = target as Node & { object?: Node };
  while (node.type === 'MemberExpression' || node.type === 'ChainExpression') {
    node = (node.type === 'ChainExpression' ? (node as Node & { expression: Node }).expression : node.object!) as typeof node;
  }
  if (node.type === 'Identifier') into.add((node as IdentifierNode).name);
  else if (node.type === 'ObjectPattern' || node.type === 'ArrayPattern' || node.type === 'AssignmentPattern' || node.type === 'RestElement') {
    walkPattern(node, (leaf) => targetNames(leaf, into));
  } else into.add(UNKNOWN_TARGET);
}

/** The names a binding pattern declares. */
function patternNames(pattern: Node, into: Set<string>): void {
  if (pattern.type === 'Identifier') into.add((pattern as IdentifierNode).name);
  else walkPattern(pattern, (leaf) => patternNames(leaf, into));
}

/** The targets inside a destructuring pattern (identifiers, members, nested patterns). */
function walkPattern(pattern: Node, visit: (leaf: Node) => void): void {
  const p = pattern as Node & { properties?: (Node & { value?: Node; argument?: Node })[]; elements?: (Node | null)[]; left?: Node; argument?: Node };
  if (pattern.type === 'ObjectPattern') for (const property of p.properties!) visit(property.type === 'RestElement' ? property.argument! : property.value!);
  else if (pattern.type === 'ArrayPattern') for (const element of p.elements!) element && visit(element);
  else if (pattern.type === 'AssignmentPattern') visit(p.left!);
  else if (pattern.type === 'RestElement') visit(p.argument!);
  else visit(pattern);
}

/** A `var` declared outside any function in `root` (it would belong to the definition's scope). */
function hasFunctionScopedVar(root: Node, rootIsTheDeclaration: boolean): boolean {
  let found = false;
  walk(root, (node, inFunction) => {
    if (node.type === 'VariableDeclaration' && (node as Node & { kind: string }).kind === 'var' && !inFunction && !(rootIsTheDeclaration && node === root)) found = true;
  });
  return found;
}

/**
 * Visit every node under `root` (root included) that can hold names: property keys, member
 * names and labels are skipped, as is everything that is not a node (and, with `skipFunctions`,
 * every function inside `root`).
 */
function walk(root: Node, visit: (node: Node, inFunction: boolean) => void, skipFunctions = false): void {
  const stack: { node: Node; inFunction: boolean }[] = [{ node: root, inFunction: false }];
  while (stack.length > 0) {
    const { node, inFunction } = stack.pop()!;
    if (skipFunctions && node !== root && FUNCTIONS.has(node.type)) continue;
    visit(node, inFunction);
    const childInFunction = inFunction || FUNCTIONS.has(node.type);
    const fields = node as unknown as Record<string, unknown>;
    for (const key in fields) {
      if (SKIPPED_FIELDS.has(key)) continue;
      if ((key === 'key' || key === 'property') && !fields.computed) continue;
      if (key === 'label') continue;
      const child = fields[key];
      if (Array.isArray(child)) {
        for (const item of child) if (isNode(item)) stack.push({ node: item, inFunction: childInFunction });
      } else if (isNode(child)) stack.push({ node: child, inFunction: childInFunction });
    }
  }
}

const SKIPPED_FIELDS = new Set(['loc', 'range', 'start', 'end', 'type']);

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && typeof (value as Node).type === 'string';
}
