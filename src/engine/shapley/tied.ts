/**
 * Whether two steps are tied within `tolerance`: the difference of their values lies in
 * [a_lo - b_hi, a_hi - b_lo] whenever both simultaneous intervals hold (a union bound, so with the
 * intervals' own probability), and that range lies within [-tolerance, tolerance]. A tie no
 * number of samples would separate then stops top1 and ranking instead of running to the cap.
 */
export function tiedWithin(a: readonly [number, number], b: readonly [number, number], tolerance: number): boolean {
  return tolerance > 0 && a[0] - b[1] >= -tolerance && a[1] - b[0] <= tolerance;
}
