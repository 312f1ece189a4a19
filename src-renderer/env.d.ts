import type { BookdropApi } from '../contract'

declare global {
  interface Window {
    /** Set by the preload in the desktop app; absent when the page is opened any other way. */
    readonly bookdrop?: BookdropApi
  }
}
