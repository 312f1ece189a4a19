/**
 * node:http, loaded with `require`. An ES `import` of it builds the module's ESM facade, which reads
 * every export, and since Node 22.4 those include the lazy WebSocket, CloseEvent and MessageEvent
 * getters: every start would load and compile undici (Node's fetch), about 40 ms of CPU that the
 * client, which speaks node:http, never uses. (Types may still be imported from 'node:http'.)
 */
import { createRequire } from 'node:module'
import type HttpModule from 'node:http'

export const http = createRequire(import.meta.url)('node:http') as typeof HttpModule
