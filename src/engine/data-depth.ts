interface Visit {
  value: object;
  depth: number;
  parent: Visit | null;
  key: string | number;
}

/**
 * Where plain data is nested more than `limit` levels deep: the path (from `path`, in the
 * `a.b[2]` notation of messages) of the first object or array past the limit, or null. Iterative,
 * so data of any depth is measured without overflowing the stack; paths are built only for the
 * answer.
 */
export function pathPastDepth(value: unknown, limit: number, path: string): string | null {
  if (value === null || typeof value !== 'object') return null;
  const stack: Visit[] = [{ value, depth: 1, parent: null, key: '' }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (visit.depth > limit) return pathOf(visit, path);
    const node = visit.value;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const child: unknown = node[i];
        if (child !== null && typeof child === 'object') stack.push({ value: child, depth: visit.depth + 1, parent: visit, key: i });
      }
    } else {
      const keys = Object.keys(node);
      for (let k = keys.length - 1; k >= 0; k--) {
        const child = (node as Record<string, unknown>)[keys[k]];
        if (child !== null && typeof child === 'object') stack.push({ value: child, depth: visit.depth + 1, parent: visit, key: keys[k] });
      }
    }
  }
  return null;
}

function pathOf(visit: Visit, root: string): string {
  const parts: string[] = [];
  for (let at: Visit | null = visit; at !== null && at.parent !== null; at = at.parent) {
    parts.push(typeof at.key === 'number' ? `[${at.key}]` : /^[A-Za-z_$][\w$]*$/.test(at.key) ? `.${at.key}` : `[${JSON.stringify(at.key)}]`);
  }
  return root + parts.reverse().join('');
}
