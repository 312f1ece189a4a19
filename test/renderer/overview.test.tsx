// @vitest-environment jsdom
/**
 * Issue 12 in the renderer (jsdom, the fake bridge): the overview and the screen the app opens on,
 * and the demo's sample receipts. Layout (what fits at 1280 × 800 and 1024 × 700) is checked in
 * Chromium by test/e2e/overview.test.ts.
 */
import { cleanup, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { Res } from '../../contract'
import { counts, fake, profile, referredBusiness, upload } from './fake-bridge'
import { bootApp, freshEachTest, resetStores, useApp } from './harness'

freshEachTest(() => {
  localStorage.clear()
  window.location.hash = ''
})

function month(): string {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`
}

function businessOverview(over: Partial<Extract<Res<'getOverview'>, { kind: 'business' }>> = {}) {
  const m = month()
  const days = Array.from({ length: 30 }, (_, i) => ({
    day: `${m}-${String(i + 1).padStart(2, '0')}`,
    sent: 0,
    completed: 0,
    failed: 0,
  }))
  days[2] = { ...days[2]!, sent: 5, completed: 4, failed: 1 }
  days[6] = { ...days[6]!, sent: 2, completed: 2, failed: 0 }
  return {
    kind: 'business' as const,
    month: m,
    filesAdded: 9,
    filesSent: 7,
    recordsCreated: 6,
    failed: 1,
    creditsUsed: 7,
    creditsPerCreate: 1,
    needsAttention: 3,
    days,
    ...over,
  }
}

describe('the screen the app opens on', () => {
  it('a business that has sent something opens on the overview, with this month at a glance', async () => {
    fake.state.session = { ...fake.state.session, counts: counts({ completed: 6, failed: 1 }) }
    fake.handlers.getOverview = () => businessOverview()
    await bootApp()
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeTruthy()
    const kpis = await screen.findByLabelText(/^Figures for /)
    const read = (label: string) =>
      [...kpis.querySelectorAll('.kpi')]
        .find((k) => k.querySelector('dt')?.textContent === label)
        ?.querySelector('.kpi__value')?.textContent
    expect(read('Files sent')).toBe('7')
    expect(read('Records created')).toBe('6')
    expect(read('Need attention')).toBe('3')
    expect(read('AI credits used')).toBe('7')
    const chart = screen.getByRole('img', {
      name: /^Files sent per day in .*: 7 files in all, most on .*\(5\)\.$/,
    })
    expect(chart.querySelectorAll('rect.chart__bar--done')).toHaveLength(2)
    expect(chart.querySelectorAll('rect.chart__bar--failed')).toHaveLength(1)
    expect(fake.calls.getOverview).toHaveBeenCalledWith({})

    // "Review them" goes where the files needing attention are listed.
    await userEvent.setup().click(screen.getByRole('button', { name: 'Review them' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Capture' })).toBeTruthy()
  })

  it('a business that has sent nothing opens on Capture; the address or the last screen wins over both', async () => {
    fake.handlers.getOverview = () => businessOverview()
    await bootApp()
    expect(await screen.findByRole('heading', { level: 1, name: 'Capture' })).toBeTruthy()
    cleanup()

    fake.reset()
    fake.state.session = { ...fake.state.session, counts: counts({ completed: 6 }) }
    resetStores()
    useApp.setState({ screen: 'history', screenDefaulted: false })
    await bootApp()
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload history' })).toBeTruthy()
  })

  it('a partner opens on its overview: the holding, grants this month, and businesses without seats', async () => {
    fake.state.profiles = [profile({ id: 'pp', kind: 'partner', name: 'Ledger', business: undefined })]
    fake.state.activeId = 'pp'
    fake.handlers.getOverview = () => ({
      kind: 'partner',
      month: month(),
      seatsGranted: 3,
      seatGrants: 2,
      creditsGranted: 500,
      creditGrants: 1,
      holdingCharged: 830,
      holding: { balance: 9170, at: Date.now() },
      grants: [
        {
          id: 1,
          profileId: 'pp',
          businessUuid: 'b1',
          businessName: 'Mama Put Kitchen',
          kind: 'credits',
          seats: 0,
          months: 0,
          credits: 500,
          holdingCharged: 500,
          holdingAfter: 9170,
          prorated: false,
          at: Date.now(),
        },
      ],
      businesses: 4,
      withoutSeats: [referredBusiness({ uuid: 'b2', name: 'Atelier Nine', email: 'hi@atelier.test' })],
      error: null,
    })
    await bootApp()
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeTruthy()
    const kpis = await screen.findByLabelText(/^Figures for /)
    expect(kpis.textContent).toContain('9,170')
    expect(kpis.textContent).toMatch(/Businesses without seats1of 4 businesses/)
    const without = screen.getByRole('table', { name: 'Businesses without seats' })
    expect(within(without).getByText('Atelier Nine')).toBeTruthy()
    expect(within(without).getByRole('button', { name: 'Add seats for Atelier Nine' })).toBeTruthy()
    const grants = screen.getByRole('table', { name: /^Grants made from Bookdrop in / })
    expect(within(grants).getByText('Mama Put Kitchen')).toBeTruthy()
    expect(within(grants).getByText('500 AI credits')).toBeTruthy()
    // The holding is known at once on the referred businesses screen too.
    expect(useApp.getState().holdingBalance).toBe(9170)
  })

  it('the month can be stepped back and forth; the next month of the current one is not offered', async () => {
    fake.state.session = { ...fake.state.session, counts: counts({ completed: 1 }) }
    fake.handlers.getOverview = (req) => businessOverview(req.month ? { month: req.month, filesSent: 0 } : {})
    await bootApp()
    const user = userEvent.setup()
    await screen.findByRole('heading', { level: 1, name: 'Overview' })
    expect((screen.getByRole('button', { name: /^Next month/ }) as HTMLButtonElement).disabled).toBe(true)
    await user.click(screen.getByRole('button', { name: /^Previous month/ }))
    const d = new Date()
    d.setDate(1)
    d.setMonth(d.getMonth() - 1)
    const prev = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`
    expect(fake.calls.getOverview).toHaveBeenLastCalledWith({ month: prev })
    await user.click(await screen.findByRole('button', { name: 'This month' }))
    expect(fake.calls.getOverview).toHaveBeenLastCalledWith({})
  })
})

describe('the demo', () => {
  it('offers the sample receipts on Capture, and drops them in one click', async () => {
    fake.state.profiles = [profile({ demo: true, name: 'Demo Bakery (demo)' })]
    fake.handlers.addSampleReceipts = () =>
      ['taxi-receipt.pdf', 'shoprite-lekki.pdf'].map((name, i) => ({
        kind: 'queued' as const,
        upload: upload({ id: 100 + i, name, path: `/data/dropped/${name}` }),
      }))
    await bootApp()
    const user = userEvent.setup()
    const offer = await screen.findByRole('region', { name: 'Try it with sample receipts' })
    await user.click(within(offer).getByRole('button', { name: 'Drop the sample receipts' }))
    expect(fake.calls.addSampleReceipts).toHaveBeenCalledWith({})
    const session = await screen.findByRole('region', { name: /^This session/ })
    expect(within(session).getByText('taxi-receipt.pdf')).toBeTruthy()
    expect(within(session).getByText('shoprite-lekki.pdf')).toBeTruthy()
  })

  it('is not offered with a real profile', async () => {
    await bootApp()
    await screen.findByRole('heading', { level: 1, name: 'Capture' })
    expect(screen.queryByRole('region', { name: 'Try it with sample receipts' })).toBeNull()
  })
})
