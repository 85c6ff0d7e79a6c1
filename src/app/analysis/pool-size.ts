/** Workers for the analysis pool: one core stays free for the page itself, and there is at least one. */
export function poolSize(hardwareConcurrency: number | undefined): number {
  const cores = Number.isFinite(hardwareConcurrency) && (hardwareConcurrency ?? 0) > 0 ? Math.floor(hardwareConcurrency!) : 2;
  return Math.max(1, cores - 1);
}
