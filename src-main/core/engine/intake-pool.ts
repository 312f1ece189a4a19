/**
 * The engine's intake worker (intake/intake-worker.ts): one limited worker that reads the content of
 * what intake and the watchers take, for the content check (the options' own check instead, in
 * tests) and for fingerprints (EngineFingerprints). The engine closes it with itself.
 */
import { TaskPool } from '../../../workers/pool'
import { FINGERPRINT_LIMITS, type FingerprintTasks } from '../fingerprint/fingerprinter'
import { type InspectFn, inspectInWorker } from '../intake/inspect'

export type IntakePool = TaskPool<FingerprintTasks & { inspect: (input: Parameters<InspectFn>[0]) => Awaited<ReturnType<InspectFn>> }>

export function engineIntakePool(given: InspectFn | undefined): { inspect: InspectFn; pool: IntakePool } {
  // One worker: intake asks it for a file's check, then for its fingerprint. Kept 30 s without work
  // (a folder that receives a file now and then does not start it again for each).
  const pool: IntakePool = new TaskPool('intake', { limits: FINGERPRINT_LIMITS, size: 1, idleMs: 30_000 })
  return { inspect: given ?? inspectInWorker(pool), pool }
}
