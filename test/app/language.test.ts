/**
 * The language on main's side (issue 34): the OS's preferred languages come from one replaceable
 * function of the host (ShellPort.preferredLanguages: Electron's app.getPreferredSystemLanguages() on
 * the desktop) and reach the window in getAppInfo; the Language setting is saved with the other
 * settings and refused when it is not a language Bookdrop has.
 */
import { describe, expect, it } from 'vitest'
import { testShell, useAppRig } from './helpers'

const rigs = useAppRig()

describe('the language, in main', () => {
  it("sends the OS's preferred languages to the window (checked), and none through the web host", async () => {
    let rig = await rigs.open({
      fixtures: null,
      shell: { ...testShell, preferredLanguages: () => ['ar-EG', 'en_GB', '<img src=x>', 42 as unknown as string] },
    })
    expect((await rig.ok('getAppInfo', {})).languages).toEqual(['ar-EG', 'en_GB'])
    await rig.close()
    rig = await rigs.open({ fixtures: null })
    expect((await rig.ok('getAppInfo', {})).languages).toEqual([])
  })

  it('a host whose OS call fails sends no language (the window then speaks English or the browser’s)', async () => {
    const rig = await rigs.open({
      fixtures: null,
      shell: {
        ...testShell,
        preferredLanguages: () => {
          throw new Error('not available')
        },
      },
    })
    expect((await rig.ok('getAppInfo', {})).languages).toEqual([])
  })

  it('saves the Language setting ("system" by default) and refuses a language Bookdrop does not have', async () => {
    const rig = await rigs.open({ fixtures: null })
    expect((await rig.ok('getSettings', {})).language).toBe('system')
    expect((await rig.ok('setSettings', { language: 'pt-BR' })).language).toBe('pt-BR')
    expect(rig.eventsOf('settings').at(-1)?.language).toBe('pt-BR')
    const bad = await rig.call('setSettings', { language: 'ja' as never })
    expect(bad.ok ? null : [bad.error.code, Object.keys(bad.error.fields ?? {})]).toEqual([
      'invalid_request',
      ['language'],
    ])
    expect((await rig.ok('getSettings', {})).language).toBe('pt-BR')
  })
})
