/**
 * The renderer's files, public build output served without a token: each with the desktop shell's
 * production CSP, and cached by kind (html never, hashed assets for a year). Plainly spelled paths
 * only (shell/static-files.ts): an odd spelling of an API path is a 404 here, never the app's page.
 */
import { readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { contentSecurityPolicy } from '../shell/csp'
import { contentType, rendererFile, staticPath } from '../shell/static-files'

/** The desktop shell's production policy: the <meta> of index.html, plus object-src, base-uri, frame-ancestors, form-action. */
export const WEB_HOST_CSP = contentSecurityPolicy({ dev: false })

/** The icon and every other file of `rendererDir`. */
export function registerStatic(app: FastifyInstance, rendererDir: string): void {
  // The app icon, so a browser's automatic request for it is answered (public, like every static file).
  app.get('/favicon.ico', async (_req, reply) => {
    const icon = await readFile(join(rendererDir, 'favicon.png')).catch(() => null)
    if (!icon) return reply.code(404).send('Not found')
    reply.header('Content-Type', 'image/png')
    reply.header('Cache-Control', 'public, max-age=86400')
    return reply.send(icon)
  })

  // The renderer's files, for plainly spelled paths only (shell/static-files.ts): an odd spelling
  // of an API path is a 404 here, never the app's page.
  const sendStatic = async (req: FastifyRequest, reply: FastifyReply) => {
    const pathname = staticPath(req.raw.url)
    const file = pathname === null ? null : await rendererFile(rendererDir, pathname)
    if (pathname === null || file === null) return reply.code(404).send('Not found')
    const ext = extname(file).toLowerCase()
    reply.header('Content-Type', contentType(file))
    reply.header('Content-Security-Policy', WEB_HOST_CSP)
    reply.header(
      'Cache-Control',
      ext === '.html'
        ? 'no-store'
        : pathname.startsWith('/assets/')
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
    )
    return reply.send(await readFile(file))
  }
  app.get('/*', sendStatic)
}
