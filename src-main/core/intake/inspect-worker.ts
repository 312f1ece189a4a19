/**
 * The content check's worker entry (workers/entries.json "inspect"): intake/inspect.ts run in a
 * worker with limits (design.md §1: a file's content is never read on the thread that answers the
 * window), on the two bounded windows of a file that intake and the watcher read.
 */
import { serve } from '../../../workers/serve'
import { type InspectInput, inspect } from './inspect'

serve({ inspect: (input: InspectInput) => inspect(input) })
