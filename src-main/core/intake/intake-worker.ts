/**
 * The intake worker's entry (workers/entries.json "intake"): what intake reads of a file's content,
 * read in a worker thread with limits (design.md §1: a file's content is never read on the thread
 * that answers the window, the web host or the phone). It serves the two reads intake asks for, one
 * after the other, for each file it takes:
 * - `inspect`, the content check (./inspect.ts) on a file's two bounded windows, for intake and the
 *   watchers, with its own lighter limits (INSPECT_LIMITS);
 * - `fingerprint`, what the receipt shows (../fingerprint/compute.ts), with FINGERPRINT_LIMITS.
 * One worker for both (they were two): each worker costs ~30 ms of CPU to start and ~7 MB of heap
 * for as long as files keep coming.
 */
import { serve } from '../../../workers/serve'
import { type ComputeInput, fingerprintOrAsk } from '../fingerprint/compute'
import { type InspectInput, inspect } from './inspect'

serve({
  inspect: (input: InspectInput) => inspect(input),
  fingerprint: (input: ComputeInput) => fingerprintOrAsk(input),
})
