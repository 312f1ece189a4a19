// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ReferredBusinessRow } from '../../schemas'
import { fake, profile, referredBusiness } from './fake-bridge'
import { freshEachTest, startApp, useApp } from './harness'

const { Businesses } = await import('../../src-renderer/screens/partner/Businesses')

const DAY = 86_400_000

freshEachTest(async () => {
  fake.state.profiles = [profile({ id: 'pp', kind: 'partner', name: 'Ledger', business: undefined })]
  fake.state.activeId = 'pp'
  await startApp()
})

function serve(rows: ReferredBusinessRow[]) {
  fake.handlers.listReferredBusinesses = (req) => ({
    current_page: req.page ?? 1,
    per_page: req.limit ?? 20,
    total: rows.length,
    data: rows,
  })
}

/** Renders the list and opens Add seats for Bakery: the dialog. */
async function openAddSeats(user: UserEvent): Promise<HTMLElement> {
  render(<Businesses />)
  await user.click(await screen.findByRole('button', { name: 'Add seats for Bakery' }))
  return screen.getByRole('dialog', { name: 'Add seats for Bakery' })
}

async function retype(user: UserEvent, input: HTMLElement, text: string): Promise<void> {
  await user.clear(input)
  await user.type(input, text)
}

describe('partner console', () => {
  it('shows every field of a referred business and sorts the loaded page', async () => {
    serve([referredBusiness(), referredBusiness({ uuid: 'b2', name: 'Atelier', email: 'a@atelier.test', credit_balance: 50 })])
    const user = userEvent.setup()
    render(<Businesses />)
    const table = await screen.findByRole('table')
    await within(table).findByText('Bakery')
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent)
    // The table keeps the columns a row is told apart and acted on by; every other field is in the
    // row's details, one menu choice away.
    expect(headers).toEqual(
      expect.arrayContaining(['Name', 'Email', 'Plan', 'Status', 'Seats', 'Expires', 'Credits']),
    )
    await user.click(within(table).getByRole('button', { name: 'More for Bakery' }))
    await user.click(screen.getByRole('menuitem', { name: 'Details and billing' }))
    const details = await screen.findByLabelText('Details of Bakery')
    const terms = within(details)
      .getAllByRole('term')
      .map((t) => t.textContent)
    // In plain words (issue 34): no API field names.
    expect(terms).toEqual([
      'ID',
      'Email',
      'Currency',
      'Country',
      'Plan',
      'Expires',
      'Subscribed',
      'Paid through',
      'Billing currency',
      'AI paid by you',
    ])
    await user.click(within(table).getByRole('button', { name: 'Name' }))
    const names = within(table)
      .getAllByRole('row')
      .slice(1)
      .filter((r) => !r.classList.contains('row-below'))
      .map((r) => r.querySelector('td')?.textContent)
    expect(names).toEqual(['Atelier', 'Bakery'])
    expect(within(table).getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe(
      'ascending',
    )
  })

  it('previews a first seat grant at 150 × seats × months and explains a shortfall in credits', async () => {
    serve([referredBusiness()])
    fake.handlers.addSeats = () => ({
      ok: false,
      error: {
        code: 'insufficient_partner_credit_holding',
        message:
          'insufficient partner credit holding: 2 seat(s) for 3 month(s) needs 900 credits, your holding has 250',
        status: 400,
      },
    })
    const user = userEvent.setup()
    const dialog = await openAddSeats(user)
    await retype(user, within(dialog).getByLabelText('Seats'), '2')
    await retype(user, within(dialog).getByLabelText('Months'), '3')
    expect(dialog.textContent).toContain('900 credits')
    expect(dialog.textContent).toContain('150 × 2 seats × 3 months')
    expect(dialog.textContent).not.toContain('estimate')
    await user.click(within(dialog).getByRole('button', { name: /Grant for 900 credits/ }))
    expect(await within(dialog).findByText(/650 credits are missing/)).toBeTruthy()
    expect(fake.calls.addSeats).toHaveBeenCalledWith({ businessUuid: 'b1', grant: { seats: 2, months: 3 } })
    // The holding is now known from the answer.
    expect(useApp.getState().holdingBalance).toBe(250)
  })

  it('labels a later grant as a prorated estimate, and shows the result from the response', async () => {
    const expires = new Date(Date.now() + 15 * DAY).toISOString().replace('Z', '000Z')
    serve([
      referredBusiness({
        subscription_status: 'active',
        subscription_plan: 'plus',
        gateway: 'referral_partner',
        available_seats: 1,
        subscription_expires_at: expires,
        is_subscribed_to_svc: true,
      }),
    ])
    fake.handlers.addSeats = () => ({
      allocation: {
        uuid: 'al-1',
        allocation_type: 'seats',
        quantity: 2,
        seats: 2,
        months: 1,
        prorated: true,
        resulting_seats: 3,
        subscription_reference: 'sub-1',
        subscription_expires_at: expires,
        meta: { holding_credits_charged: 150, credits_granted: 0 },
      },
      holding_credits_charged: 150,
      partner_holding_balance: 9850,
      subscription_expires_at: expires,
      transaction_credits_granted: 0,
    })
    const user = userEvent.setup()
    const dialog = await openAddSeats(user)
    await retype(user, within(dialog).getByLabelText('Seats'), '2')
    // ceil(150 × 2 × 15 / 30) = 150, give or take the seconds since `expires` was made.
    expect(within(dialog).getByText('Cost (estimate)')).toBeTruthy()
    expect(dialog.textContent).toMatch(/15\.00 remaining days|14\.99 remaining days/)
    await user.click(within(dialog).getByRole('button', { name: /Grant for/ }))
    const done = await screen.findByRole('dialog', { name: 'Seats granted to Bakery' })
    expect(done.textContent).toContain('Yes: charged for the rest of the running period')
    expect(within(done).getByText('3')).toBeTruthy()
    expect(done.textContent).toContain('9,850 credits')
  })

  it('dialogs keep focus inside and close with Escape, returning focus', async () => {
    serve([referredBusiness()])
    const user = userEvent.setup()
    render(<Businesses />)
    // Add credits is in the row's menu: the menu button is where focus returns.
    const opener = await screen.findByRole('button', { name: 'More for Bakery' })
    await user.click(opener)
    await user.click(screen.getByRole('menuitem', { name: 'Add credits…' }))
    const dialog = screen.getByRole('dialog', { name: 'Add AI credits for Bakery' })
    expect(dialog.contains(document.activeElement)).toBe(true)
    for (let i = 0; i < 6; i++) await user.tab()
    expect(dialog.contains(document.activeElement)).toBe(true)
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
  })
})
