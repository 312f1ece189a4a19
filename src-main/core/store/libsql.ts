/**
 * libsql, loaded with `require`. An ES `import` of this CommonJS package makes Node scan its source
 * for export names (cjs-module-lexer), a loop hot enough to start V8's optimizing compiler at every
 * start of the bundled headless mode: about 9 MB more RSS for the whole run (issue 14, idle).
 */
import { createRequire } from 'node:module'
import type LibsqlDatabase from 'libsql'

const load = createRequire(import.meta.url)

export const Database = load('libsql') as typeof LibsqlDatabase
export type { LibsqlDatabase }
