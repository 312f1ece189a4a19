/**
 * The contract over HTTP, under `/api`: `POST /api/call/:name` runs a call (files on routes of
 * their own, with a larger body limit), `GET /api/events` streams the service's events.
 */
import type { ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { EVENT_NAMES, FILE_CALLS } from '../../contract'
import type { AppService } from '../core/app-service'
import { dispatch, isCallName } from '../core/bridge'
import { requireToken } from './auth'
import { SECURITY_HEADERS, refusal } from './guard'

const KEEP_ALIVE_MS = 15_000
/** A call that carries files carries at most ~140 MiB of Base64 (the contract's cap) plus a little JSON. */
const FILE_CALL_BODY_LIMIT = 150 * 1024 * 1024

/**
 * The `/api` scope. `streams` collects the open event streams, so that a stop can end them.
 */
export async function registerApi(
  app: FastifyInstance,
  { service, token, streams }: { service: AppService; token: string; streams: Set<ServerResponse> },
): Promise<void> {
  // Everything under /api lives in one Fastify scope whose onRequest hook checks the token. Fastify
  // runs a scope's hooks for the route that MATCHED, whatever the raw spelling of the path was
  // (percent-encoded letters, and so on), so authentication never depends on how the URL was written.
  await app.register(
    async (api) => {
      api.addHook('onRequest', requireToken(token))

      // Calls that carry files as bytes keep the large limit, each on a route of its own (Fastify
      // decides the limit before it reads the body); every other call at most 1 MiB (the app's bodyLimit).
      for (const name of FILE_CALLS) {
        api.post(`/call/${name}`, { bodyLimit: FILE_CALL_BODY_LIMIT }, async (req) =>
          dispatch(service, name, req.body),
        )
      }
      api.post<{ Params: { name: string } }>('/call/:name', async (req, reply) => {
        const name = req.params.name
        if (!isCallName(name)) reply.code(404)
        return dispatch(service, name, req.body)
      })

      api.get('/events', (req, reply) => {
        reply.hijack()
        const res = reply.raw
        res.writeHead(200, {
          ...SECURITY_HEADERS,
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        })
        res.write(`retry: 2000\n: connected\n\n`)
        streams.add(res)
        const off = service.onEvent((name, payload) => {
          if ((EVENT_NAMES as readonly string[]).includes(name))
            res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)
        })
        const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS)
        keepAlive.unref()
        const done = () => {
          off()
          clearInterval(keepAlive)
          streams.delete(res)
        }
        req.raw.on('close', done)
        res.on('close', done)
        res.on('error', done)
      })

      api.all('/*', async (_req, reply) => reply.code(404).send(refusal('not_found', 'No such API route.')))
    },
    { prefix: '/api' },
  )
}
