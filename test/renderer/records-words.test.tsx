// @vitest-environment jsdom
/**
 * Plain words on the record screens (issue 34): an invoice is titled by its number, not its id;
 * payment methods and statuses read as words; a statement's missing instructions say what to write.
 */
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { fake } from './fake-bridge'
import { freshEachTest } from './harness'

const { Invoices } = await import('../../src-renderer/screens/Invoices')
const { Bank } = await import('../../src-renderer/screens/Bank')

freshEachTest()

const INVOICE = {
  uuid: 'demo-inv-0003',
  document_number: null,
  source_uuid: 'INV-1003',
  date: '2026-11-24',
  due_date: '2026-12-24',
  narration: 'Corporate pastries',
  total_amount: 92500,
  amount_paid: 20000,
  balance: 72500,
  currency: 'NGN',
  status: 'posted',
  contact: 'Cafe Lumen',
  record_items: [],
  payments: [{ uuid: 'pay-1', date: '2026-11-25', amount: 20000, method: 'bank_transfer' }],
}

describe('invoices in plain words', () => {
  it('lists an invoice by its number and opens it titled by that number, never its id', async () => {
    const user = userEvent.setup()
    fake.handlers.listInvoices = () => ({
      data: [{ uuid: INVOICE.uuid, source_uuid: 'INV-1003', narration: INVOICE.narration, status: 'posted' }],
      meta: { page: 1, limit: 20, total: 1 },
    })
    fake.handlers.getInvoice = ({ id }) =>
      id === INVOICE.uuid || id === 'INV-1003'
        ? INVOICE
        : { ok: false, error: { code: 'not_found', message: 'not found', status: 404 } }
    render(<Invoices />)
    const list = await screen.findByRole('table', { name: 'Invoices' })
    const row = (await within(list).findByText('Corporate pastries')).closest('tr')!
    // The list's Number column and its Status column speak the number and a worded status.
    expect(within(row).getByText('INV-1003')).toBeTruthy()
    expect(within(row).getByText('Posted')).toBeTruthy()
    expect(row.textContent).not.toContain('posted')

    await user.click(within(row).getByRole('button', { name: 'Open invoice INV-1003' }))
    const view = await screen.findByRole('region', { name: 'Invoice INV-1003' })
    await vi.waitFor(() => expect(within(view).getByText('Corporate pastries')).toBeTruthy())
    expect(view.textContent).not.toContain('demo-inv-0003')
    // Its payments name the method in words.
    const payments = within(view).getByRole('table', { name: 'Payments' })
    expect(within(payments).getByText('Bank transfer')).toBeTruthy()
    expect(payments.textContent).not.toContain('bank_transfer')

    // Opened by hand, the field asks for a number or a reference, not API names.
    expect(screen.getByLabelText('Open by number or reference')).toBeTruthy()
    expect(document.body.textContent).not.toMatch(/source_uuid|uuid/)
  })
})

describe('a bank statement upload', () => {
  it('says what to write when the instructions are empty, and sends nothing', async () => {
    const user = userEvent.setup()
    fake.handlers.listBankTransactions = () => ({ data: [], meta: { page: 1, limit: 20, total: 0 } })
    render(<Bank />)
    const drop = document.querySelector<HTMLInputElement>('input[type="file"]')!
    await user.upload(drop, new File(['date,amount\n'], 'march.csv', { type: 'text/csv' }))
    await user.click(screen.getByRole('button', { name: 'Upload statement' }))
    const field = screen.getByLabelText(/^Instructions/, { selector: 'textarea' })
    // The field's message, as a screen reader hears it with the field.
    const text = (field.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
    expect(text).toContain('Write what the AI should do with the statement: which account and period it covers.')
    expect(text).not.toMatch(/prompt/i)
    expect(fake.calls.uploadBankStatement).not.toHaveBeenCalled()
  })
})
