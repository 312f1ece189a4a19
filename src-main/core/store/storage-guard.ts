/** A call of the stores where a storage fault pauses the uploads instead of escaping. */
import { isStorageError } from './storage-errors'

/** What a storage fault is reported to: the upload queue, which pauses every upload until storage works. */
export interface StorageFaults {
  storageFault(e: unknown): void
}

/** Runs a call of the stores; a storage fault is reported and gives undefined, anything else is thrown. */
export function storageGuarded<T>(faults: StorageFaults, call: () => T): T | undefined {
  try {
    return call()
  } catch (e) {
    if (!isStorageError(e)) throw e
    faults.storageFault(e)
    return undefined
  }
}
