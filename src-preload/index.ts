// Sandboxed preload (CommonJS, see electron.vite.config.ts): exposes exactly one object, window.bookdrop.
import { contextBridge } from 'electron'
import type { BookdropApi } from './contract'

declare const __BOOKDROP_VERSION__: string

const bookdrop = Object.freeze({ version: __BOOKDROP_VERSION__ }) satisfies BookdropApi

contextBridge.exposeInMainWorld('bookdrop', bookdrop)
