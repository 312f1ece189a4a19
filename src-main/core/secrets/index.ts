/** Keys and profiles: the OS keychain behind one interface, and the profiles that use it. Plain Node. */
export * from './secret-store'
export {
  KeytarSecretStore,
  loadKeytar,
  NO_SECRET_SERVICE_PROBLEM,
  describeKeychainFailure,
  keychainLabel,
} from './keytar-store'
export type { KeytarLike, KeytarLoader, KeytarSecretStoreOptions } from './keytar-store'
export { EnvSecretStore, API_KEY_ENV } from './env-store'
export type { EnvSecretStoreOptions } from './env-store'
export { MemorySecretStore } from './memory-store'
export { openSecretStore } from './open'
export type { OpenSecretStoreOptions, OpenedSecretStore } from './open'
export * from './profiles'
export { writeFileAtomic } from './atomic-file'
