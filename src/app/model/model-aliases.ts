/** `alias=id` lines (the Model panel's "other aliases") to a record, or the problem with a line. */
export function parseAliases(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  for (const [k, line] of lines.entries()) {
    const eq = line.indexOf('=');
    const alias = eq < 0 ? '' : line.slice(0, eq).trim();
    const id = eq < 0 ? '' : line.slice(eq + 1).trim();
    if (alias === '' || id === '' || /\s/.test(alias)) return `Line ${k + 1}: expected alias=model-id, got "${line}".`;
    if (alias === 'default') return `Line ${k + 1}: set the default model in the "Model id" field.`;
    if (Object.hasOwn(out, alias)) return `Line ${k + 1}: alias "${alias}" is given twice.`;
    Object.defineProperty(out, alias, { value: id, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function formatAliases(models: Readonly<Record<string, string>>): string {
  return Object.entries(models).map(([alias, id]) => `${alias}=${id}`).join('\n');
}
