// @vitest-environment jsdom
/**
 * The Mail screen (issue 24): accounts with their state and what to do about an error, adding an
 * account (the password goes to main once and leaves the form), a rule, and the demo's inbox.
 */
import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fake, mailAccount } from './fake-bridge'
import { freshEachTest, startApp, useApp } from './harness'

const { Mail } = await import('../../src-renderer/screens/Mail')

freshEachTest(async () => {
  await startApp()
})

describe('the Mail screen', () => {
  it('shows each account with its state, last check and rules; an error says what to do, live', async () => {
    fake.state.mail = [
      mailAccount({
        rules: [
          {
            id: 'r1',
            accountId: 'm1',
            mailbox: 'INBOX',
            fromContains: 'flour',
            subjectContains: null,
            since: '2026-01-01',
            target: 'expenses',
            promptTemplate: 'x',
            acceptedKinds: ['pdf'],
            after: 'move',
            moveTo: 'Bookdrop/Done',
            sendBody: false,
            processType: 'async',
            enabled: true,
            addedAt: 0,
          },
        ],
      }),
    ]
    render(<Mail />)
    const card = (await screen.findByRole('heading', { name: 'Shop inbox' })).closest('li')!
    expect(within(card).getByText('Connected')).toBeTruthy()
    expect(within(card).getByText(/new mail pushed \(IDLE\)/)).toBeTruthy()
    expect(
      within(card).getByText(
        /INBOX → Expenses \(receipts\) · from “flour” · since 2026-01-01 · then moved to Bookdrop\/Done/,
      ),
    ).toBeTruthy()

    act(() =>
      fake.emit('mail', {
        accountId: 'm1',
        state: 'error',
        problem: 'auth',
        message:
          'mail account "Shop inbox": the server refused the user name or password for receipts@bakery.test. Check them; Gmail and Microsoft 365 need an app password (see README), then save it again.',
        lastCheckAt: null,
        idle: false,
      }),
    )
    expect(within(card).getByText('Needs attention')).toBeTruthy()
    expect(within(card).getByRole('alert').textContent).toMatch(/app password/)
  })

  it('adds an account: the password goes to main once and is not kept in the form; then asks for a rule', async () => {
    const user = userEvent.setup()
    render(<Mail />)
    await user.click(await screen.findByRole('button', { name: 'Add mail account' }))
    await user.type(screen.getByLabelText(/IMAP server/), 'imap.gmail.com')
    await user.type(screen.getByLabelText(/User name/), 'me@gmail.com')
    await user.type(screen.getByLabelText(/Password or app password/), 'abcd efgh ijkl mnop')
    await user.click(screen.getByRole('button', { name: 'Add account' }))
    expect(fake.calls.saveMailAccount).toHaveBeenCalledWith({
      account: {
        profileId: 'p1',
        host: 'imap.gmail.com',
        security: 'tls',
        user: 'me@gmail.com',
        usePolling: false,
        enabled: true,
      },
      password: 'abcd efgh ijkl mnop',
    })
    // The rule dialog follows; the store holds no password.
    const dialog = await screen.findByRole('dialog', { name: /Add a rule to me@gmail.com@imap.gmail.com/ })
    expect(JSON.stringify(useApp.getState().mailAccounts)).not.toContain('abcd efgh')
    await user.type(within(dialog).getByLabelText(/Subject contains/), 'invoice')
    await user.click(within(dialog).getByRole('radio', { name: 'Move it to a mailbox' }))
    await user.click(within(dialog).getByRole('button', { name: 'Add rule' }))
    expect(fake.calls.saveMailRule).toHaveBeenCalledWith({
      rule: expect.objectContaining({
        accountId: 'm1',
        mailbox: 'INBOX',
        subjectContains: 'invoice',
        after: 'move',
        moveTo: 'Bookdrop/Done',
        target: 'expenses',
      }),
    })
    expect(await screen.findByText(/INBOX → Expenses \(receipts\) · subject “invoice”/)).toBeTruthy()
  })

  it('a refused field shows under the field', async () => {
    const user = userEvent.setup()
    fake.handlers.saveMailAccount = () => ({
      ok: false,
      error: {
        code: 'invalid_request',
        message: 'security: only to this computer',
        fields: {
          security:
            'a connection without TLS is allowed only to this computer (127.0.0.1): choose TLS or STARTTLS',
        },
      },
    })
    render(<Mail />)
    await user.click(await screen.findByRole('button', { name: 'Add mail account' }))
    await user.type(screen.getByLabelText(/IMAP server/), 'imap.example.com')
    await user.type(screen.getByLabelText(/User name/), 'me')
    await user.type(screen.getByLabelText(/Password or app password/), 'pw')
    await user.click(screen.getByRole('radio', { name: /None/ }))
    await user.click(screen.getByRole('button', { name: 'Add account' }))
    expect(await screen.findByText(/allowed only to this computer/)).toBeTruthy()
  })

  it("the demo's inbox: read it, and send a test receipt into it", async () => {
    const user = userEvent.setup()
    fake.state.mail = [
      mailAccount({
        id: 'demo-inbox',
        kind: 'demo',
        demo: true,
        label: 'Demo inbox (demo)',
        status: { state: 'disabled', message: null, problem: null, lastCheckAt: null, idle: false },
      }),
    ]
    render(<Mail />)
    await user.click(await screen.findByRole('button', { name: 'Read the demo inbox' }))
    expect(fake.calls.checkMail).toHaveBeenCalledWith({ accountId: 'demo-inbox' })
    await user.click(screen.getByRole('button', { name: 'Send a test receipt' }))
    expect(fake.calls.addDemoMail).toHaveBeenCalled()
    expect(screen.queryByRole('button', { name: /Account settings/ })).toBeNull()
  })
})
