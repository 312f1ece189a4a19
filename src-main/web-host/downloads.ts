/**
 * CSV exports by download link: `GET /api/download/:ticket` opens one file of <dataDir>/exports,
 * once, within DOWNLOAD_TICKET_TTL_MS. A browser download cannot send a header and the token must
 * not sit in a URL, so the single-use ticket of the path stands in for the token.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { randomSecret } from './auth'
import { refusal } from './guard'

const EXPORT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.csv$/
/** How long a download link works (once): the person clicks it right after exporting. */
export const DOWNLOAD_TICKET_TTL_MS = 10 * 60_000
/** Download links not used yet, at most (the oldest go first). */
const MAX_TICKETS = 100

export interface Downloads {
  /** A new link to one export (the shell port's `downloadUrl`). */
  url(file: string): string
  /** The download scope, serving the exports of `dataDir`. */
  register(app: FastifyInstance, dataDir: string): Promise<void>
}

export function downloads(): Downloads {
  /** Download tickets: ticket → the export it opens, until when. */
  const tickets = new Map<string, { file: string; until: number }>()
  return {
    url(file) {
      const ticket = randomSecret()
      tickets.set(ticket, { file, until: Date.now() + DOWNLOAD_TICKET_TTL_MS })
      while (tickets.size > MAX_TICKETS) tickets.delete(tickets.keys().next().value!)
      return `/api/download/${ticket}`
    },
    async register(app, dataDir) {
      // Downloads: a scope of their own, whose hook takes the single-use ticket of the path in place of
      // the token (a browser download cannot send a header, and the token must not sit in a URL).
      await app.register(
        async (dl) => {
          dl.addHook('onRequest', async (_req, reply) => {
            reply.header('Cache-Control', 'no-store')
          })
          // No HEAD: it would spend the ticket without giving the file.
          dl.get<{ Params: { ticket: string } }>('/:ticket', { exposeHeadRoute: false }, async (req, reply) => {
            const gone = () =>
              reply.code(404).send(refusal('not_found', 'This download link was used already or has expired: export the history again.'))
            const entry = tickets.get(req.params.ticket)
            if (!entry) return gone()
            tickets.delete(req.params.ticket)
            if (entry.until < Date.now() || !EXPORT_NAME.test(entry.file)) return gone()
            const path = join(dataDir, 'exports', entry.file)
            const st = await stat(path).catch(() => null)
            if (!st?.isFile()) return gone()
            reply.header('Content-Type', 'text/csv; charset=utf-8')
            reply.header('Content-Disposition', `attachment; filename="${entry.file}"`)
            reply.header('Content-Length', String(st.size))
            return reply.send(createReadStream(path))
          })
        },
        { prefix: '/api/download' },
      )
    },
  }
}
