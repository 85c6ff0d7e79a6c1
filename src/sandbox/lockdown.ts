import 'ses';
import { utcDatePrototype } from './utc-dates.ts';

let lockedDown = false;

/**
 * Freeze this realm's shared intrinsics with SES `lockdown()` so that code in a Compartment can
 * neither tamper with prototypes nor climb to the host's capabilities. Called once per realm
 * (a Node worker thread, a browser Web Worker, a test process) before any pipeline is compiled.
 *
 * Options, chosen so the host (engine, vitest, the CLI) keeps working after lockdown:
 * - errorTaming 'unsafe' and stackFiltering 'verbose': keep real stacks, so a step's error can
 *   point at the user's line (stacks reveal file paths, no capability);
 * - overrideTaming 'severe': assigning a property that shadows a frozen prototype property
 *   (`obj.toString = ...`, `err.name = ...`) keeps working in host libraries;
 * - consoleTaming 'unsafe', errorTrapping/unhandledRejectionTrapping 'none', reporting 'none':
 *   leave the host's console and process-level handlers alone (the CLI's stdout stays clean);
 * - domainTaming 'unsafe': tolerate Node's domain module if a host library loaded it.
 */
export function ensureLockdown(): void {
  if (lockedDown) return;
  // Before lockdown freezes Date.prototype: definitions see UTC, never the machine's zone.
  utcDatePrototype();
  try {
    lockdown({
      errorTaming: 'unsafe',
      stackFiltering: 'verbose',
      overrideTaming: 'severe',
      consoleTaming: 'unsafe',
      errorTrapping: 'none',
      unhandledRejectionTrapping: 'none',
      reporting: 'none',
      domainTaming: 'unsafe',
    });
  } catch (error) {
    // Another copy of this module (e.g. a second bundle in the same worker) got here first.
    if (!(error instanceof Error) || !/already locked down/i.test(error.message)) throw error;
  }
  lockedDown = true;
}
