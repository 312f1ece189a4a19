/**
 * Connection truth, main side (issue 26; test/network/ covers 'not_api' and 'offline'):
 * a server that stops answering makes the profile 'unreachable', with a message saying what
 * Bookdrop does; the first answer of the API after it comes back sets it to 'active' again, and the
 * file waiting meanwhile is sent once.
 */
import { afterEach, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox'
import { PROFILE, type Rig, createdBySha, fixtures, receipt, rig, waitFor } from './helpers'

let r: Rig | undefined
let sb: Sandbox | undefined
afterEach(async () => {
  await r?.close()
  await sb?.stop()
  r = undefined
  sb = undefined
})

it('a stopped server makes the profile unreachable; its first answer after a restart makes it active', async () => {
  sb = await startSandbox({ fixtures: fixtures(), port: 0 })
  const port = sb.port
  r = await rig({ sandbox: sb, engine: { queue: { retry: { baseMs: 100, capMs: 300 } } } })
  await sb.stop()

  const file = await receipt(r.inbox, 'while-down.txt')
  await r.engine.addFiles([file.path], { profileId: PROFILE, target: 'expenses' })
  const down = await waitFor('the profile to be unreachable', () =>
    r!.events.profile.find((e) => e.profileId === PROFILE && e.state === 'unreachable'),
  )
  expect(down.message).toMatch(/Could not reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/)
  expect(down.message).toMatch(/tries again by itself \(at least every 30 s\); nothing is lost/)
  expect(r.engine.profileState(PROFILE).state).toBe('unreachable')
  // Nothing is held: the file waits for its next retry, not for a person.
  expect(r.engine.history().rows[0]?.status).toMatch(/waiting_retry|uploading/)

  sb = await startSandbox({ fixtures: fixtures(), port })
  await waitFor('the profile to be active again', () => r!.engine.profileState(PROFILE).state === 'active')
  await r.engine.whenIdle()
  expect(r.engine.history().rows[0]?.status).toBe('completed')
  expect((await createdBySha(sb)).get(file.sha256)).toBe(1)
  const states = r.events.profile.filter((e) => e.profileId === PROFILE).map((e) => e.state)
  expect(states).toEqual(['unreachable', 'active'])
})
