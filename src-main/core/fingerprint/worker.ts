/**
 * The fingerprint worker's entry (workers/entries.json "fingerprint"): compute.ts in a worker
 * thread with FINGERPRINT_LIMITS (./fingerprinter.ts), away from the thread that answers the
 * window, the web host and the phone.
 */
import { serve } from '../../../workers/serve'
import { type ComputeInput, fingerprintOrAsk } from './compute'

serve({
  fingerprint: (input: ComputeInput) => fingerprintOrAsk(input),
})
