import { parse, tokenizer, type Node, type Program } from 'acorn';
import type { ValidPipeline } from '../engine/pipeline.ts';
import { DefinitionError } from './definition-error.ts';
import { preparePipeline } from './compile.ts';
import { describeThrown } from './explain-error.ts';

/**
 * What each step of a definition is made of, so two versions of a definition can be compared step
 * by step (the regression game, docs/ci.md). A step's code is its `run` function's text read as
 * tokens (comments and layout do not count) together with every top-level declaration that text
 * reaches by name, transitively (a helper function, a table of documents), and every other
 * top-level statement that names one of those (a `DOCUMENTS.push(...)`). What it does not see: a
 * value passed to a step factory at its call site (`makeStep(3)` against `makeStep(5)` build the
 * same function text).
 */
export interface StepCode {
  name: string;
  inputs: string[];
  /** Canonical text of the step's code; null when its run function's text cannot be read (compared as changed). */
  code: string | null;
}

export interface DefinitionCode {
  fileName: string;
  name: string;
  steps: StepCode[];
  /** The metric's code, as a step's. */
  metric: string | null;
  threshold: number;
  range: [number, number];
  /** `models` and `modelParams` as JSON text ('' when absent), compared as they are. */
  models: string;
  modelParams: string;
  /** The validated definition, for what else the caller reads (its cases are not read). */
  definition: ValidPipeline;
}

/** A top-level statement of the definition's file: the names it declares, the names it mentions, its tokens. */
interface TopLevel {
  declares: string[];
  mentions: Set<string>;
  text: string;
}

const FUNCTION_TO_STRING = Function.prototype.toString;

/**
 * Compiles the definition (the same checks as an analysis: DefinitionError naming the file) and
 * reads each step's code. Its cases are neither read nor checked.
 */
export function readDefinitionCode(source: string, fileName: string): DefinitionCode {
  const prepared = preparePipeline(source, fileName);
  const definition = prepared.instantiate({ cases: 'skip' });
  const exported = prepared.evaluateExport();
  const topLevel = topLevelStatements(source, prepared.fileName);
  let rawSteps: unknown[];
  let rawMetric: unknown;
  try {
    const record = exported as { steps: unknown; metric: unknown };
    rawSteps = Array.from(record.steps as unknown[]);
    rawMetric = record.metric;
  } catch (error) {
    throw new DefinitionError(`${prepared.fileName}: reading the definition's steps failed: ${describeThrown(error, () => undefined)}`);
  }
  const steps = definition.steps.map((step, index): StepCode => {
    let run: unknown;
    try {
      run = (rawSteps[index] as { run: unknown }).run;
    } catch {
      run = undefined;
    }
    return { name: step.name, inputs: [...step.inputs], code: codeOf(run, topLevel) };
  });
  const range = definition.range ?? [0, 1];
  return {
    fileName: prepared.fileName,
    name: definition.name,
    steps,
    metric: codeOf(rawMetric, topLevel),
    threshold: definition.threshold ?? 1,
    range: [range[0], range[1]],
    models: definition.models === undefined ? '' : JSON.stringify(definition.models),
    modelParams: definition.modelParams === undefined ? '' : JSON.stringify(definition.modelParams),
    definition,
  };
}

/** A function's code: its tokens and the top-level statements it reaches by name, in file order. */
function codeOf(fn: unknown, topLevel: readonly TopLevel[]): string | null {
  if (typeof fn !== 'function') return null;
  let text: string;
  try {
    text = Reflect.apply(FUNCTION_TO_STRING, fn, []) as string;
  } catch {
    return null;
  }
  const own = tokensOf(text);
  const reached = new Set<TopLevel>();
  const pending = [...own.names];
  const seenNames = new Set<string>();
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seenNames.has(name)) continue;
    seenNames.add(name);
    for (const statement of topLevel) {
      if (reached.has(statement)) continue;
      // A declaration of the name, or a statement that uses it (and may change what it holds).
      if (statement.declares.includes(name) || (statement.declares.length === 0 && statement.mentions.has(name))) {
        reached.add(statement);
        pending.push(...statement.mentions, ...statement.declares);
      }
    }
  }
  return JSON.stringify({ run: own.text, uses: topLevel.filter((s) => reached.has(s)).map((s) => s.text) });
}

/** Tokens without comments or layout, and the identifiers among them. */
function tokensOf(text: string): { text: string; names: Set<string> } {
  const names = new Set<string>();
  const parts: string[] = [];
  try {
    for (const token of tokenizer(text, { ecmaVersion: 'latest', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true })) {
      const value = (token as { value?: unknown }).value;
      if (token.type.label === 'name') names.add(String(value));
      parts.push(value === undefined ? token.type.label : `${token.type.label}:${String(value)}`);
    }
  } catch {
    // Text the tokenizer cannot read (it came from the file, which parsed): compare it as written, spaces folded.
    return { text: text.replace(/\s+/g, ' ').trim(), names: new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []) };
  }
  return { text: JSON.stringify(parts), names };
}

/** The file's top-level statements but its `export default`: what a step's code may reach by name. */
function topLevelStatements(source: string, fileName: string): TopLevel[] {
  let program: Program;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'module' });
  } catch (error) {
    // preparePipeline parsed it already; this names the file should acorn disagree with itself.
    throw new DefinitionError(`${fileName}: ${(error as Error).message}`);
  }
  const out: TopLevel[] = [];
  for (const statement of program.body) {
    if (statement.type === 'ExportDefaultDeclaration') continue;
    const piece = source.slice(statement.start, statement.end);
    const { text, names } = tokensOf(piece);
    out.push({ declares: declaredNames(statement), mentions: names, text });
  }
  return out;
}

function declaredNames(statement: Node): string[] {
  switch (statement.type) {
    case 'FunctionDeclaration':
    case 'ClassDeclaration': {
      const id = (statement as Node & { id: { name: string } | null }).id;
      return id ? [id.name] : [];
    }
    case 'VariableDeclaration': {
      const names: string[] = [];
      for (const declarator of (statement as Node & { declarations: { id: Node }[] }).declarations) patternNames(declarator.id, names);
      return names;
    }
    default:
      return [];
  }
}

/** The names a binding pattern declares (`const { a, b: [c] } = ...` declares a and c). */
function patternNames(pattern: Node, into: string[]): void {
  const p = pattern as Node & { name?: string; properties?: Node[]; elements?: (Node | null)[]; left?: Node; argument?: Node; value?: Node };
  switch (pattern.type) {
    case 'Identifier':
      into.push(p.name!);
      break;
    case 'ObjectPattern':
      for (const property of p.properties!) patternNames(property.type === 'RestElement' ? (property as Node & { argument: Node }).argument : (property as Node & { value: Node }).value, into);
      break;
    case 'ArrayPattern':
      for (const element of p.elements!) if (element) patternNames(element, into);
      break;
    case 'AssignmentPattern':
      patternNames(p.left!, into);
      break;
    case 'RestElement':
      patternNames(p.argument!, into);
      break;
  }
}
