/**
 * The content check of intake and the watchers: the options' own (tests), or in a pool of limited
 * workers the engine closes with it.
 */
import { TaskPool } from '../../../workers/pool'
import { INSPECT_LIMITS, type InspectFn, inspectInWorker } from '../intake/inspect'

export type InspectPool = TaskPool<{
  inspect: (input: Parameters<InspectFn>[0]) => Awaited<ReturnType<InspectFn>>
}>

export function engineInspect(given: InspectFn | undefined): { inspect: InspectFn; pool: InspectPool | null } {
  if (given) return { inspect: given, pool: null }
  const pool: InspectPool = new TaskPool('inspect', { limits: INSPECT_LIMITS, idleMs: 30_000 })
  return { inspect: inspectInWorker(pool), pool }
}
