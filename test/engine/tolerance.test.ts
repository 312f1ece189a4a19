/**
 * The engine with servers that made other choices (issue #11): AI credits that run out, a server
 * whose job references cannot be followed, a job status nobody told us about, and a create answer
 * that names no job and no record. Real HTTP throughout: the emulator (both variants) or, where
 * the emulator cannot be that server, a tiny node:http server that answers as such a server would.
 */
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  COMPLETION_NOT_REPORTED,
  COMPLETION_NOT_REPORTED_CODE,
  CREDITS_FIX,
  UNKNOWN_JOB_STATUS_POLLS,
} from '../../schemas'
import { SANDBOX_VARIANTS } from '../../sandbox'
import { BookkeepingClient } from '../../src-main/core/api'
import type { ClientProvider } from '../../src-main/core/queue/queue'
import { KEY, PROFILE, type Rig, byName, createdBySha, fixtures, receipt, rig, waitFor } from './helpers'

const PARTNER_KEY = 'svc_partner_sk_engine'

let r: Rig | undefined
let other: Server | undefined
afterEach(async () => {
  await r?.close()
  r = undefined
  other?.closeAllConnections()
  await new Promise<void>((res) => (other ? other.close(() => res()) : res()))
  other = undefined
})

const drop = (paths: string[], processType?: 'async' | 'direct') =>
  r!.engine.addFiles(paths, { profileId: PROFILE, target: 'expenses', processType })

describe.each(SANDBOX_VARIANTS)('against the %s emulator', (variant) => {
  it('credits run out: the profile is held with the reason and the fix, files wait where they are; a partner grant and resume finish each once', async () => {
    r = await rig({
      variant,
      fixtures: fixtures({
        businesses: [{ uuid: 'b1', name: 'Bakery', key: KEY, credit_balance: 2, referred_by: PARTNER_KEY }],
      }),
      engine: { queue: { concurrency: 1 } },
    })
    const files = await Promise.all(['c1.txt', 'c2.txt', 'c3.txt', 'c4.txt'].map((n) => receipt(r!.inbox, n)))
    await drop(files.map((f) => f.path))
    const held = await waitFor('out_of_credits', () =>
      r!.events.profile.find((p) => p.state === 'out_of_credits'),
    )
    expect(held.message).toMatch(/insufficient AI credits/)
    expect(held.message).toContain(CREDITS_FIX)
    expect(r.engine.profileState(PROFILE)).toMatchObject({ state: 'out_of_credits' })
    await r.engine.whenIdle()
    const counts = r.engine.uploads.countByStatus()
    expect(counts.completed).toBe(2)
    expect(counts.failed).toBe(0)
    expect(counts.waiting_retry + counts.queued).toBe(2)
    const waiting = r.engine.history({ statuses: ['waiting_retry'] }).rows[0]!
    expect(waiting.lastError).toMatch(/insufficient AI credits/)
    expect(waiting.httpStatus).toBe(402)
    for (const f of files) expect(existsSync(f.path)).toBe(true)
    // Nothing more is tried while held.
    const sent = r.seen.filter((s) => s.method === 'POST').length
    await new Promise((res) => setTimeout(res, 300))
    expect(r.seen.filter((s) => s.method === 'POST').length).toBe(sent)

    const grant = await fetch(`${r.sb.url}/referred-businesses/b1/add-credits`, {
      method: 'POST',
      headers: { 'X-API-Key': PARTNER_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ credits: 10 }),
    })
    expect(grant.status).toBe(200)
    r.engine.resume(PROFILE)
    await r.engine.whenIdle()
    expect(r.engine.uploads.countByStatus().completed).toBe(4)
    const made = await createdBySha(r.sb)
    for (const f of files) expect(made.get(f.sha256)).toBe(1)
    expect(r.events.profile.at(-1)?.state).toBe('active')
  })

  it('a server that does not follow job references: the row says the file was sent and the server did not report completion', async () => {
    // A 404 for a job younger than the grace period is asked again (lifecycle); past it, this.
    r = await rig({ variant, engine: { queue: { jobNotFoundGraceMs: 0 } } })
    r.sb.setFaults({ missing_paths: ['/jobs/'] })
    const f = await receipt(r.inbox, 'unfollowed.txt')
    await drop([f.path])
    await r.engine.whenIdle()
    const row = r.engine.history().rows[0]!
    expect(row).toMatchObject({
      status: 'completed',
      recordUuid: null,
      errorCode: COMPLETION_NOT_REPORTED_CODE,
    })
    expect(row.lastError).toMatch(new RegExp(`^${COMPLETION_NOT_REPORTED.replace(/[.;]/g, '\\$&')}`))
    expect(row.lastError).toContain('404')
    // It was sent once, and the server does create it (after its job delay): nothing invites a
    // second create.
    await waitFor('the record on the server', async () => (await createdBySha(r!.sb)).get(f.sha256) === 1)
    expect(r.seen.filter((s) => s.path.startsWith('/jobs/'))).toHaveLength(1)
  })
})

/** A server of its own shapes: answers the create and the job as `answer` says; counts job polls. */
async function otherServer(answer: {
  create: () => unknown
  job?: () => unknown
}): Promise<{ url: string; polls: () => number }> {
  let polls = 0
  other = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/v1/, '')
      let data: unknown
      if (req.method === 'POST' && path === '/expenses') data = answer.create()
      else if (req.method === 'GET' && path.startsWith('/jobs/')) {
        polls++
        data = answer.job?.()
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ status: 'success', message: 'ok', ...(data === undefined ? {} : { data }) }))
    })
  })
  await new Promise<void>((res) => other!.listen(0, '127.0.0.1', res))
  return { url: `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1`, polls: () => polls }
}

const FASTER = { retry: { baseMs: 10, capMs: 20 }, poll: { firstMs: 10, maxMs: 20, factor: 1 } }

function providerAt(url: string): ClientProvider {
  return {
    clientFor: async () => new BookkeepingClient({ environment: 'custom', baseUrl: url, auth: { key: KEY } }),
  }
}

describe('a server with its own vocabulary', () => {
  it(`a job status never recognised: followed for ${UNKNOWN_JOB_STATUS_POLLS} polls, then sent, completion not reported`, async () => {
    const srv = await otherServer({
      create: () => ({ jobReference: 'J-1' }),
      job: () => ({ id: 'J-1', state: 'thinking hard' }),
    })
    r = await rig({ clients: providerAt(srv.url), engine: { queue: FASTER } })
    const f = await receipt(r.inbox, 'odd.txt')
    await r.engine.addFiles([f.path], { profileId: PROFILE, target: 'expenses' })
    await r.engine.whenIdle()
    const row = byName(r.engine.history().rows).get('odd.txt')!
    expect(row).toMatchObject({ status: 'completed', recordUuid: null, jobReference: 'J-1' })
    expect(row.lastError).toContain(COMPLETION_NOT_REPORTED)
    expect(row.lastError).toContain('never gave a status Bookdrop knows')
    expect(srv.polls()).toBe(UNKNOWN_JOB_STATUS_POLLS)
  })

  it('status synonyms and other names are followed to the record; a create answer with neither job nor record completes with the note', async () => {
    let n = 0
    const srv = await otherServer({
      create: () => (++n === 1 ? { job: { reference: 'J-2' } } : { accepted: true }),
      job: () => ({ state: 'Done', result: { id: 'rec-9', resource_type: 'expense' } }),
    })
    r = await rig({ clients: providerAt(srv.url), engine: { queue: FASTER } })
    const a = await receipt(r.inbox, 'a.txt')
    await r.engine.addFiles([a.path], { profileId: PROFILE, target: 'expenses' })
    await r.engine.whenIdle()
    const b = await receipt(r.inbox, 'b.txt')
    await r.engine.addFiles([b.path], { profileId: PROFILE, target: 'expenses' })
    await r.engine.whenIdle()
    const rows = byName(r.engine.history().rows)
    expect(rows.get('a.txt')).toMatchObject({
      status: 'completed',
      recordUuid: 'rec-9',
      recordType: 'expense',
      lastError: null,
    })
    expect(rows.get('b.txt')).toMatchObject({ status: 'completed', recordUuid: null, jobReference: null })
    expect(rows.get('b.txt')!.lastError).toContain(COMPLETION_NOT_REPORTED)
    expect(srv.polls()).toBe(1)
  })
})
