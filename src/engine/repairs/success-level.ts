/**
 * The value a repair must reach (CausalFlow's "outcome flips" made numeric): the level asked for
 * (`--success V`, the page's "Minimal repairs" setting), else the upper end of the metric's
 * `range`, else 1. The command, the batch view and the case view all judge repairs by it, so a
 * metric scored from 0 to 10 is repaired at 10 everywhere.
 */
export function successLevel(asked: number | undefined, range: readonly [number, number] | undefined): number {
  return asked ?? range?.[1] ?? 1;
}
