// @vitest-environment jsdom
/**
 * Settings' connection section (issue 22): the proxy (the system's, manual, none), extra trusted
 * certificates, the proxy's password (sent to main, never shown again) and Test connection.
 */
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fake } from './fake-bridge'
import { bootApp, freshEachTest, useApp } from './harness'

freshEachTest()

const SYSTEM = {
  proxyMode: 'system' as const,
  proxyUrl: null,
  proxyUser: null,
  proxyPasswordSaved: false,
  extraCertificates: [] as string[],
}

describe('Settings: connection', () => {
  it('saves a manual proxy (its field message shown), a certificate, a proxy password, and shows what Test connection found', async () => {
    fake.handlers.getConnection = () => ({ ...SYSTEM, extraCertificates: [] })
    fake.handlers.setConnection = (req) =>
      req.proxyMode === 'manual' && !req.proxyUrl
        ? { ok: false, error: { code: 'invalid_request', message: 'Enter the proxy address.', fields: { proxyUrl: 'enter the proxy address' } } }
        : { ...SYSTEM, proxyMode: req.proxyMode, proxyUrl: req.proxyUrl ?? null, extraCertificates: req.caPem ? ['Corp Root CA (Corp)'] : [] }
    fake.handlers.setProxyCredentials = (req) => ({ ...SYSTEM, proxyUser: req.username, proxyPasswordSaved: true })
    fake.handlers.testConnection = () => ({
      baseUrl: 'https://api.corp.example/v1',
      proxy: 'http://proxy.corp.example:3128',
      issuer: 'Corp Root CA (Corp)',
      roundTripMs: 42,
      status: 200,
      api: true,
      keyAccepted: true,
      message: 'The API answered in 42 ms and accepted the key.',
      trust: "Node's certificate authorities (not the system's store: it could not be read, access denied)",
    })
    await bootApp()
    act(() => useApp.getState().setScreen('settings'))
    const section = within((await screen.findByRole('heading', { name: 'Connection' })).closest('section')!)
    const user = userEvent.setup()

    await user.click(section.getByRole('radio', { name: 'Manual' }))
    await user.click(section.getByRole('button', { name: 'Save connection' }))
    expect(await section.findByText('enter the proxy address')).toBeTruthy()
    await user.type(section.getByLabelText('Proxy address'), 'http://proxy.corp.example:3128')
    await user.type(section.getByLabelText('Extra trusted certificates (PEM)'), '-----BEGIN CERTIFICATE-----')
    await user.click(section.getByRole('button', { name: 'Save connection' }))
    expect(fake.calls.setConnection).toHaveBeenLastCalledWith({
      proxyMode: 'manual',
      proxyUrl: 'http://proxy.corp.example:3128',
      caPem: '-----BEGIN CERTIFICATE-----',
    })
    expect(await section.findByText(/Trusted now, besides the system's: Corp Root CA \(Corp\)/)).toBeTruthy()

    await user.type(section.getByLabelText('Proxy user name'), 'ann')
    const pw = section.getByLabelText('Proxy password')
    expect(pw.getAttribute('type')).toBe('password')
    await user.type(pw, 'secret-pw')
    await user.click(section.getByRole('button', { name: 'Save proxy password' }))
    expect(fake.calls.setProxyCredentials).toHaveBeenCalledWith({ username: 'ann', password: 'secret-pw' })
    expect(await section.findByText(/A password is saved in the keychain/)).toBeTruthy()
    expect((section.getByLabelText('Proxy password') as HTMLInputElement).value).toBe('')

    await user.click(section.getByRole('button', { name: 'Test connection' }))
    expect(await section.findByText('http://proxy.corp.example:3128')).toBeTruthy()
    expect(section.getByText('Signed by Corp Root CA (Corp)')).toBeTruthy()
    expect(section.getByText('42 ms')).toBeTruthy()
    // What is really trusted: a system store that could not be read is not claimed.
    expect(section.getByText(/not the system's store: it could not be read, access denied/)).toBeTruthy()
    expect(section.getByText("The API's")).toBeTruthy()
  })
})
