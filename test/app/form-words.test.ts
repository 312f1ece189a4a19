/**
 * Issue 34: a form the schema refuses says, under each field, what to do in the person's language.
 * The Mail screen's account form through the app's real bridge dispatch: a user name with a line
 * break and a connection without TLS to another computer; a port out of range. Each field's
 * sentence carries its code (worded in French here, as the renderer's bridge words it), the
 * message says how many fields need a change, and the English texts stay as the schema wrote them.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { wordCoded } from '../../contract/i18n/all'
import type { BridgeError } from '../../contract'
import { type AppRig, addProfile, appRig } from './helpers'

const open: AppRig[] = []
afterEach(async () => {
  for (const r of open.splice(0)) await r.close()
})

/** The field's coded sentence, by the end of its path (the form shows it under that field). */
function field(e: BridgeError, name: string) {
  const hit = Object.entries(e.codedFields ?? {}).find(([k]) => k === name || k.endsWith(`.${name}`))
  return hit?.[1]
}

describe('a refused form in the person’s language', () => {
  it('the mail account form: each field says what to do in French; the English stays', async () => {
    const r = await appRig()
    open.push(r)
    const profileId = await addProfile(r)
    await r.ok('setActiveProfile', { id: profileId })
    const res = await r.call('saveMailAccount', {
      account: { profileId, host: 'mail.example.com', port: 143, security: 'plain', user: 'recus\n@boulangerie.test' },
      password: 'pw-not-echoed',
    })
    expect(res.ok).toBe(false)
    const e = (res as { ok: false; error: BridgeError }).error
    expect(e.code).toBe('invalid_request')
    expect(e.message).toContain('the user name has a control character')
    expect(e.message).toContain('a connection without TLS is allowed only to this computer')
    expect(wordCoded(field(e, 'user')!, 'fr')).toBe(
      'Le nom d’utilisateur contient un caractère de contrôle (comme un saut de ligne) : saisissez-le de nouveau.',
    )
    expect(field(e, 'user')!.text).toBe('the user name has a control character')
    expect(wordCoded(field(e, 'security')!, 'fr')).toBe(
      'Une connexion sans TLS n’est autorisée que vers cet ordinateur (127.0.0.1) : choisissez TLS ou STARTTLS.',
    )
    expect(wordCoded(e.coded!, 'fr')).toBe('2 champs sont à modifier : chacun indique quoi faire.')
    expect(e.coded!.text).toBe(e.message)
    expect(JSON.stringify(e)).not.toContain('pw-not-echoed')

    const port = await r.call('saveMailAccount', {
      account: { profileId, host: '127.0.0.1', port: 70000, security: 'plain', user: 'me@x.test' },
      password: 'pw',
    })
    const pe = (port as { ok: false; error: BridgeError }).error
    expect(field(pe, 'port')).toMatchObject({ code: 'errors.form_number_too_large', params: { maximum: 65535 } })
    expect(wordCoded(field(pe, 'port')!, 'de')).toBe('Geben Sie eine Zahl von höchstens 65535 ein.')
    expect(wordCoded(pe.coded!, 'de')).toBe('Ein Feld muss geändert werden: Jedes sagt, was zu tun ist.')
  })
})
