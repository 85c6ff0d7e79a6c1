/**
 * Records keyed by user-chosen names (steps, players): a step may be called `__proto__`,
 * `constructor` or `toString`. Records are built without a prototype, so assigning `__proto__`
 * makes an own entry (on a plain `{}` it would set the prototype and vanish), and read through
 * ownValue, so an absent name never finds an Object.prototype member. Results still reach readers
 * as plain objects after a structured clone or JSON, which is why reads go through ownValue too.
 */
export function namedRecord<T>(names: readonly string[], values: readonly T[]): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  for (let i = 0; i < names.length; i++) record[names[i]] = values[i];
  return record;
}

/** The entry `name` of a record only if the record itself holds it (never an inherited member). */
export function ownValue<T>(record: Readonly<Record<string, T>> | null | undefined, name: string): T | undefined {
  return record !== undefined && record !== null && Object.hasOwn(record, name) ? record[name] : undefined;
}
