/**
 * Reads a record entry only if the record itself holds it, so step names such as "constructor" or
 * "__proto__" (legal in a definition, hostile in a trace) never pick up Object.prototype members.
 */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && record !== null && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Like ownValue, for numeric records: anything but a number reads as undefined. */
export function ownNumber(record: Readonly<Record<string, number>> | undefined, key: string): number | undefined {
  const value = ownValue<unknown>(record, key);
  return typeof value === 'number' ? value : undefined;
}
