/**
 * When a JSON file is none of the formats we read, the nearest one. Each importer names the key
 * paths that tell its files (`shapes`); a file is scored by how far it goes along each path (a key
 * spelled another way, `resource_spans` for `resourceSpans`, counts half), and the best partial
 * match names the format and the first thing it lacks ("this looks like an OTLP request envelope
 * but has no resourceSpans[].scopeSpans[].spans: resourceSpans[0] has no scopeSpans"), instead of
 * a list of every format.
 */
import { childPath, indexPath } from './json-path.ts';
import { describeValue, isJsonObject } from './validate.ts';

export interface FormatShape {
  /** What a file of this shape is called, with its article: "an OTLP request envelope". */
  name: string;
  /**
   * The key paths that tell it, all required: `resourceSpans[].scopeSpans[].spans[]` (`[]`: a
   * non-empty list, then any of its items). A path that starts with `[]` is a top-level list.
   */
  paths: readonly string[];
}

export interface NearMiss {
  shape: FormatShape;
  /** The share of the shape's keys found (0..1; a key spelled another way counts half). */
  score: number;
  /** The first path the file does not have, as written in the shape (without a final `[]`). */
  path: string;
  /** What is there instead, with its JSON path. */
  problem: string;
}

interface Segment {
  key: string | null;
  list: boolean;
}

function segmentsOf(path: string): Segment[] {
  return path.split('.').flatMap((part): Segment[] => {
    const list = part.endsWith('[]');
    const key = list ? part.slice(0, -2) : part;
    return key === '' ? [{ key: null, list: true }] : [{ key, list }];
  });
}

/** Keys compared as a reader would: case, `_` and `-` aside. */
function loose(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

function keysHint(object: Record<string, unknown>): string {
  const keys = Object.keys(object);
  if (keys.length === 0) return ' (it is an empty object)';
  const shown = keys.slice(0, 6).join(', ');
  return ` (it has ${shown}${keys.length > 6 ? `, ... ${keys.length - 6} more` : ''})`;
}

interface Walk {
  points: number;
  problem: string | null;
  /** Keys found only when spelled another way: "resource_spans for resourceSpans". */
  respelled: string[];
}

const ITEMS_TRIED = 20;

/** How far `value` goes along the segments; at a list, the item that goes furthest. */
function walk(value: unknown, segments: readonly Segment[], where: string): Walk {
  let at = value;
  let path = where;
  let points = 0;
  const respelled: string[] = [];
  for (let k = 0; k < segments.length; k++) {
    const { key, list } = segments[k];
    if (key !== null) {
      if (!isJsonObject(at)) return { points, respelled, problem: `${path || 'the top level'}: expected an object, ${describeValue(at)}` };
      let found = key;
      if (Object.hasOwn(at, key)) points += 1;
      else {
        const other = Object.keys(at).find((candidate) => loose(candidate) === loose(key));
        if (other === undefined) return { points, respelled, problem: `${path || 'the top level'} has no ${key}${keysHint(at)}` };
        points += 0.5;
        respelled.push(`${other} for ${key}`);
        found = other;
      }
      path = childPath(path, found);
      at = at[found];
    }
    if (!list) continue;
    if (!Array.isArray(at)) return { points, respelled, problem: `${path || 'the top level'}: expected a list, ${describeValue(at)}` };
    if (at.length === 0) return { points, respelled, problem: `${path || 'the top level'} is an empty list` };
    const rest = segments.slice(k + 1);
    if (rest.length === 0) return { points, respelled, problem: null };
    let best: Walk | null = null;
    for (let i = 0; i < Math.min(at.length, ITEMS_TRIED); i++) {
      const item = walk(at[i], rest, indexPath(path, i));
      if (best === null || item.points > best.points) best = item;
      if (item.problem === null && item.respelled.length === 0) break;
    }
    return { points: points + best!.points, respelled: [...respelled, ...best!.respelled], problem: best!.problem };
  }
  return { points, respelled, problem: null };
}

/** How near `document` is to `shape`, or null when it shares none of its keys (a bare list shares nothing). */
export function scoreShape(document: unknown, shape: FormatShape): NearMiss | null {
  let points = 0;
  let total = 0;
  let miss: { path: string; problem: string } | null = null;
  for (const path of shape.paths) {
    const segments = segmentsOf(path);
    // Only keys count: any JSON text can open with a list.
    total += segments.filter((segment) => segment.key !== null).length;
    const result = walk(document, segments, '');
    points += result.points;
    if (miss !== null) continue;
    const shown = path.replace(/\[\]$/, '');
    const respelled = result.respelled.length > 0 ? `it has ${result.respelled.join(', ')}` : null;
    if (result.problem !== null) miss = { path: shown, problem: respelled ? `${result.problem}; ${respelled}` : result.problem };
    else if (respelled !== null) miss = { path: shown, problem: respelled };
  }
  if (points < 1 || total === 0) return null;
  return { shape, score: points / total, path: miss?.path ?? shape.paths[0], problem: miss?.problem ?? 'it has every key of the shape' };
}

/** The shape `document` comes nearest to (the first of equals), or null when it shares no key with any. */
export function nearestShape(document: unknown, shapes: readonly FormatShape[]): NearMiss | null {
  let best: NearMiss | null = null;
  for (const shape of shapes) {
    const near = scoreShape(document, shape);
    if (near !== null && (best === null || near.score > best.score)) best = near;
  }
  return best;
}

/** "looks like an OTLP request envelope but has no resourceSpans[].scopeSpans[].spans: resourceSpans is an empty list" */
export function describeNearMiss(near: NearMiss): string {
  return `looks like ${near.shape.name} but has no ${near.path}: ${near.problem}`;
}
