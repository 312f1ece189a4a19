/**
 * The person's own calls (lists, forms) on a network that misbehaves (issue 22): they say what
 * came instead of the API's answer, and the profile's connection state follows them as it follows
 * uploads: not_api while a portal answers, active again with the API's first answer.
 */
import { afterEach, expect, it } from 'vitest'
import { type AppRig, addProfile, appRig } from '../app/helpers'
import { type Front, startFront } from './path-servers'

let r: AppRig | undefined
let front: Front | undefined
afterEach(async () => {
  await r?.close()
  await front?.stop()
  r = front = undefined
})

it('a portal answering a list: the error says so, the session says not_api; the API again: active', async () => {
  r = await appRig()
  front = await startFront(r.sb!.origin)
  const id = await addProfile(r, 'business', { baseUrl: front.url })
  await r.ok('setActiveProfile', { id })
  front.behave = () => ({ html: '', title: 'Guest WiFi' })
  const refused = await r.call('listExpenses', {})
  expect(refused.ok).toBe(false)
  if (!refused.ok) {
    expect(refused.error.code).toBe('not_api')
    expect(refused.error.message).toMatch(/a web page \("Guest WiFi"\) \(HTTP 200\) came instead of the API's answer/)
  }
  const waiting = await r.ok('getSession', {})
  expect(waiting.state).toBe('not_api')
  expect(waiting.message).toMatch(/Guest WiFi.*nothing is lost/)

  front.behave = () => 'pass'
  await r.ok('listExpenses', {})
  expect((await r.ok('getSession', {})).state).toBe('active')
  expect(r.eventsOf('profile').map((p) => p.state)).toEqual(['not_api', 'active'])
})
