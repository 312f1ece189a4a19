// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { fake, profile } from './fake-bridge'
import { bootApp, freshEachTest, useApp } from './harness'

freshEachTest()

describe('app shell', () => {
  it('first run: connects with a key and shows the error and field message plainly', async () => {
    fake.state.profiles = []
    fake.state.activeId = null
    fake.handlers.addProfile = () => ({
      ok: false,
      error: {
        code: 'public_key',
        message: 'A public key (svc_pk_...) is not a secret.',
        fields: { secret: 'Use the secret key (svc_sk_...).' },
      },
    })
    fake.handlers.startDemo = () => {
      fake.state.profiles = [profile({ demo: true })]
      fake.state.activeId = 'p1'
      return { profiles: fake.state.profiles, activeId: 'p1' }
    }
    await bootApp()
    const user = userEvent.setup()
    expect(await screen.findByRole('heading', { name: 'Welcome to Bookdrop' })).toBeTruthy()
    await user.type(screen.getByLabelText('Profile name'), 'Bakery')
    const key = screen.getByLabelText('Secret key')
    expect(key.getAttribute('type')).toBe('password')
    await user.type(key, 'svc_pk_oops')
    await user.click(screen.getByRole('button', { name: 'Connect' }))
    expect(
      (await screen.findByText(/A public key \(svc_pk_\.\.\.\) is not a secret\./)).getAttribute('role'),
    ).toBe('alert')
    expect(screen.getByText('Use the secret key (svc_sk_...).')).toBeTruthy()
    expect(fake.calls.addProfile).toHaveBeenCalledWith({
      name: 'Bakery',
      kind: 'business',
      environment: 'production',
      secret: 'svc_pk_oops',
    })

    await user.click(screen.getByRole('button', { name: 'Try demo' }))
    expect(await screen.findByRole('navigation', { name: 'Screens' })).toBeTruthy()
  })

  it('shows business screens for a business profile, partner screens for a partner, and switches with Ctrl+digits', async () => {
    await bootApp()
    const user = userEvent.setup()
    const nav = await screen.findByRole('navigation', { name: 'Screens' })
    expect(within(nav).getByRole('button', { name: /Purchase orders/ })).toBeTruthy()
    expect(within(nav).queryByRole('button', { name: /Referred businesses/ })).toBeNull()
    // Ctrl+1 is the overview, then the screens in the order of the navigation.
    await user.keyboard('{Control>}4{/Control}')
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload history' })).toBeTruthy()
    expect(useApp.getState().screen).toBe('history')

    act(() =>
      useApp.getState().applyProfiles({
        profiles: [profile({ id: 'pp', kind: 'partner', name: 'Ledger' })],
        activeId: 'pp',
      }),
    )
    expect(within(nav).queryByRole('button', { name: /Purchase orders/ })).toBeNull()
    expect(within(nav).getByRole('button', { name: /Referred businesses/ })).toBeTruthy()
    expect(useApp.getState().screen).toBe('overview')
  })

  it('a refused key (401) asks for a new one in place, then resumes uploads', async () => {
    fake.state.session = {
      ...fake.state.session,
      state: 'auth_required',
      message: 'The key was rejected (401).',
    }
    fake.handlers.rotateProfileKey = () => profile()
    await bootApp()
    const user = userEvent.setup()
    const input = await screen.findByLabelText('Enter a new key')
    await user.type(input, 'svc_sk_new_key')
    await user.click(screen.getByRole('button', { name: 'Save key and resume' }))
    await vi.waitFor(() => expect(fake.calls.resumeUploads).toHaveBeenCalled())
    expect(fake.calls.rotateProfileKey).toHaveBeenCalledWith({ id: 'p1', secret: 'svc_sk_new_key' })
  })

  it('a 403 explains the Developer API subscription rule', async () => {
    fake.state.session = { ...fake.state.session, state: 'forbidden', message: null }
    await bootApp()
    expect(
      (
        await screen.findByText(
          /This business cannot use the Developer API: it needs an active Plus subscription with Developer API access/,
        )
      ).textContent,
    ).toBeTruthy()
  })

  it('one pause control: in the status bar while running; paused, a banner with the reason and Resume', async () => {
    await bootApp()
    const user = userEvent.setup()
    expect(screen.getAllByRole('button', { name: 'Pause uploads' })).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Resume uploads' })).toBeNull()
    fake.handlers.pauseUploads = () => ({ ...fake.state.session, state: 'paused', message: 'Paused by you' })
    await user.click(screen.getByRole('button', { name: 'Pause uploads' }))
    const banner = (await screen.findByRole('heading', { name: 'Uploads are paused' })).closest('section')!
    expect(banner.textContent).toContain('Paused by you')
    expect(screen.queryByRole('button', { name: 'Pause uploads' })).toBeNull()
    expect(screen.getAllByRole('button', { name: 'Resume uploads' })).toHaveLength(1)
    fake.handlers.resumeUploads = () => ({ ...fake.state.session, state: 'active', message: null })
    await user.click(within(banner).getByRole('button', { name: 'Resume uploads' }))
    await vi.waitFor(() => expect(screen.queryByRole('heading', { name: 'Uploads are paused' })).toBeNull())
    expect(fake.calls.resumeUploads).toHaveBeenCalled()
  })

  it('a full disk is told at the top of the screen, with the reason, and goes when storage works again', async () => {
    await bootApp()
    const problem =
      'The disk is full: Bookdrop cannot record uploads, so it has paused them. Free some space; uploads resume by themselves.'
    act(() => fake.emit('session', { ...fake.state.session, storage: problem }))
    const title = await screen.findByRole('heading', {
      name: 'Uploads are paused: Bookdrop cannot write to its data folder',
    })
    const banner = title.closest('section')!
    expect(banner.getAttribute('role')).toBe('alert')
    expect(banner.textContent).toContain('Uploads are paused: Bookdrop cannot write to its data folder')
    expect(banner.textContent).toContain(problem)
    act(() => fake.emit('session', { ...fake.state.session, storage: null }))
    await vi.waitFor(() => expect(screen.queryByText(/cannot write to its data folder/)).toBeNull())
  })

  it('out of AI credits: the reason and the fix in place, and resume once credits are there', async () => {
    fake.state.session = {
      ...fake.state.session,
      state: 'out_of_credits',
      message:
        'insufficient AI credits: an AI create costs 1 credit and this business has 0 credits left. Ask your referral partner for an AI credit grant, or buy AI credits in the application; then resume uploads.',
    }
    await bootApp()
    const user = userEvent.setup()
    const banner = await screen.findByRole('alert', { name: /has run out of AI credits/ })
    expect(banner.textContent).toContain('this business has 0 credits left')
    expect(banner.textContent).toContain('Ask your referral partner for an AI credit grant')
    const bar = screen.getByRole('contentinfo', { name: 'Status' })
    expect(bar.textContent).toContain('Out of AI credits')
    expect(within(bar).getByRole('button', { name: 'Pause uploads' }).hasAttribute('disabled')).toBe(true)
    await user.click(within(banner).getByRole('button', { name: 'resume uploads' }))
    await vi.waitFor(() => expect(fake.calls.resumeUploads).toHaveBeenCalled())
  })

  it('a business the server did not name shows under the profile name', async () => {
    fake.state.profiles = [
      profile({ name: 'Acme', business: { uuid: null, name: null, currency: null, country: null } }),
    ]
    await bootApp()
    const nav = await screen.findByRole('navigation', { name: 'Screens' })
    expect(nav.textContent).toContain('Acme')
    expect(screen.getByRole('contentinfo', { name: 'Status' }).textContent).toContain('Acme')
  })

  it('status bar shows the active profile, rate limit and queue counts', async () => {
    fake.state.session = {
      ...fake.state.session,
      rateLimit: { limit: 600, remaining: 42, resetAt: null, pausedUntil: null },
      counts: { ...fake.state.session.counts, queued: 3, uploading: 1, processing: 2, completed: 10 },
    }
    await bootApp()
    const bar = await screen.findByRole('contentinfo', { name: 'Status' })
    expect(bar.textContent).toContain('Bakery')
    expect(bar.textContent).toContain('API 42/600 left')
    expect(bar.textContent).toContain('4 files waiting')
    expect(bar.textContent).toContain('2 processing')
  })

  it('Ctrl+O opens the file picker on the capture screen', async () => {
    await bootApp()
    const user = userEvent.setup()
    await user.keyboard('{Control>}3{/Control}')
    await screen.findByRole('heading', { level: 1, name: 'Watched folders' })
    const click = vi.spyOn(HTMLInputElement.prototype, 'click')
    await user.keyboard('{Control>}o{/Control}')
    await screen.findByRole('heading', { level: 1, name: 'Capture' })
    await vi.waitFor(() => expect(click).toHaveBeenCalled())
    expect((click.mock.contexts[0] as HTMLInputElement).type).toBe('file')
    click.mockRestore()
  })
})
