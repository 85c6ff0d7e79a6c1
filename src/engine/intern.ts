import { canonicalize } from './canonical.ts';

/** A node of the trie that numbers arrays and objects by the ids of their parts. */
interface TrieNode {
  next: Map<number, TrieNode> | null;
  /** The id of the value whose parts end here, or -1. */
  id: number;
}

const newNode = (): TrieNode => ({ next: null, id: -1 });

/**
 * Numbers plain values so that two values get the same id exactly when their canonical texts
 * (canonical.ts) are equal, without building those texts: strings and numbers are looked up in
 * maps, arrays and objects in a trie over their parts' ids (an object's parts are its sorted keys,
 * each followed by its value). The step cache interns every output a step returns, and building,
 * hashing and keeping a text per output cost more than the steps of the demos themselves.
 *
 * Equality follows canonicalize: numbers by String(x) (so by value, with -0 apart from 0 and NaN
 * equal to itself), strings by content, undefined as a value of its own; anything canonicalize
 * rejects (functions, symbols, bigints, class instances, cycles) throws its TypeError, message
 * and path included.
 */
export class ValueInterner {
  private size = 0;
  private readonly strings = new Map<string, number>();
  /** Numbers by SameValueZero: -0 has its own id (its canonical text differs from 0's). */
  private readonly numbers = new Map<number, number>();
  private readonly idUndefined = this.size++;
  private readonly idNull = this.size++;
  private readonly idTrue = this.size++;
  private readonly idFalse = this.size++;
  private readonly idMinusZero = this.size++;
  private readonly arrays = newNode();
  private readonly objects = newNode();
  /** Containers on the path from the root being interned (a cycle check; trees are shallow). */
  private readonly ancestors: object[] = [];

  /** How many distinct values have ids. */
  get count(): number {
    return this.size;
  }

  /** The id of `value`; throws canonicalize's TypeError for anything that is not plain data. */
  id(value: unknown): number {
    try {
      return this.of(value);
    } catch (error) {
      this.ancestors.length = 0;
      // canonicalize names the path of the offending part; it throws the same kind of error.
      if (error === NOT_PLAIN) canonicalize(value);
      throw error;
    }
  }

  private of(value: unknown): number {
    switch (typeof value) {
      case 'string':
        return this.stringId(value);
      case 'number': {
        if (value === 0 && 1 / value < 0) return this.idMinusZero;
        let id = this.numbers.get(value);
        if (id === undefined) this.numbers.set(value, (id = this.size++));
        return id;
      }
      case 'boolean':
        return value ? this.idTrue : this.idFalse;
      case 'undefined':
        return this.idUndefined;
      case 'object':
        if (value === null) return this.idNull;
        return this.containerId(value);
      default:
        throw NOT_PLAIN;
    }
  }

  private stringId(text: string): number {
    let id = this.strings.get(text);
    if (id === undefined) this.strings.set(text, (id = this.size++));
    return id;
  }

  private containerId(value: object): number {
    const ancestors = this.ancestors;
    if (ancestors.includes(value)) throw NOT_PLAIN;
    ancestors.push(value);
    let node: TrieNode;
    if (Array.isArray(value)) {
      node = this.arrays;
      const length = value.length;
      for (let i = 0; i < length; i++) node = step(node, this.of(value[i]));
    } else {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
      const keys = Object.keys(value);
      sortKeys(keys);
      node = this.objects;
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k];
        node = step(step(node, this.stringId(key)), this.of((value as Record<string, unknown>)[key]));
      }
    }
    ancestors.pop();
    if (node.id < 0) node.id = this.size++;
    return node.id;
  }
}

/** Thrown inside the interner for a value canonicalize rejects; `id` rethrows canonicalize's own error. */
const NOT_PLAIN = new Error('not plain data');

function step(node: TrieNode, id: number): TrieNode {
  let next = node.next;
  if (next === null) node.next = next = new Map();
  let child = next.get(id);
  if (child === undefined) next.set(id, (child = newNode()));
  return child;
}

/**
 * Sort distinct keys in place into the order Array.prototype.sort gives them (UTF-16 code units,
 * which is what `<` compares). Insertion sort: objects have few keys, often sorted already, and
 * the built-in sort on a fresh small array cost more than the rest of the interning.
 */
function sortKeys(keys: string[]): void {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    if (!(keys[j] > key)) continue;
    while (j >= 0 && keys[j] > key) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = key;
  }
}
