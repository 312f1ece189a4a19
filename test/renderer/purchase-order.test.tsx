// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { fake } from './fake-bridge'
import { freshEachTest } from './harness'

const { PurchaseOrderForm } = await import('../../src-renderer/screens/PurchaseOrders')

freshEachTest()

describe('purchase order form', () => {
  it('says to add an item when there is none, and sends nothing', async () => {
    const user = userEvent.setup()
    render(<PurchaseOrderForm onCreated={() => {}} />)
    await user.click(screen.getByRole('button', { name: 'Remove line 1' }))
    // purchaseOrderSchema's rule, in words that say what to do (issue 34).
    expect(screen.getByRole('alert')).toHaveProperty('textContent', 'Add at least one item.')
    await user.click(screen.getByRole('button', { name: 'Create purchase order' }))
    expect(fake.calls.createPurchaseOrder).not.toHaveBeenCalled()
  })

  it('keeps a running total as lines are typed, and shows field messages on submit', async () => {
    const user = userEvent.setup()
    const created = vi.fn()
    render(<PurchaseOrderForm onCreated={created} />)
    const line1 = screen.getByRole('group', { name: 'Line 1' })
    await user.clear(within(line1).getByLabelText(/Quantity/))
    await user.type(within(line1).getByLabelText(/Quantity/), '2')
    await user.type(within(line1).getByLabelText(/Price/), '10')
    await user.type(within(line1).getByLabelText('Tax %'), '7.5')
    expect(screen.getByTestId('po-total').textContent).toMatch(/21\.50/)

    await user.click(screen.getByRole('button', { name: '+ Add line' }))
    const line2 = screen.getByRole('group', { name: 'Line 2' })
    await user.type(within(line2).getByLabelText(/Item name/), 'Flour')
    await user.clear(within(line2).getByLabelText(/Quantity/))
    await user.type(within(line2).getByLabelText(/Quantity/), '3')
    await user.type(within(line2).getByLabelText(/Price/), '5')
    await user.type(within(line2).getByLabelText('Discount'), '10')
    await user.selectOptions(within(line2).getByLabelText('Discount type'), 'percent')
    // 21.50 + (15 − 10%) = 35.00
    expect(screen.getByTestId('po-total').textContent).toMatch(/35\.00/)

    // Line 1 has no name: the schema's rule, in plain words, appears on submit, and nothing is sent.
    await user.click(screen.getByRole('button', { name: 'Create purchase order' }))
    expect(within(line1).getByText('Each item needs a name.')).toBeTruthy()
    expect(fake.calls.createPurchaseOrder).not.toHaveBeenCalled()

    await user.type(within(line1).getByLabelText(/Item name/), 'Sugar')
    await user.click(screen.getByRole('button', { name: 'Create purchase order' }))
    await vi.waitFor(() => expect(created).toHaveBeenCalled())
    const order = fake.calls.createPurchaseOrder.mock.calls[0]![0].order as {
      items: Record<string, unknown>[]
    }
    expect(order.items).toEqual([
      { item_name: 'Sugar', quantity: 2, selling_price: 10, tax: 7.5 },
      { item_name: 'Flour', quantity: 3, selling_price: 5, discount: 10, discount_type: 'percent' },
    ])
    expect(created.mock.calls[0]![0]).toMatchObject({ document_number: 'PO-00001' })
  })

  it('asks for the inventory item’s ID when a line is linked to inventory', async () => {
    const user = userEvent.setup()
    render(<PurchaseOrderForm onCreated={() => {}} />)
    const line1 = screen.getByRole('group', { name: 'Line 1' })
    await user.type(within(line1).getByLabelText(/Item name/), 'Rice')
    await user.type(within(line1).getByLabelText(/Price/), '100')
    await user.click(within(line1).getByLabelText('Inventory item'))
    await user.click(screen.getByRole('button', { name: 'Create purchase order' }))
    expect(within(line1).getByText('Give the inventory item’s ID.')).toBeTruthy()
    expect(fake.calls.createPurchaseOrder).not.toHaveBeenCalled()
  })

  it('says each item needs a price, as a number, and a name, in words with no API field names', async () => {
    const user = userEvent.setup()
    render(<PurchaseOrderForm onCreated={() => {}} />)
    const line1 = screen.getByRole('group', { name: 'Line 1' })
    await user.type(within(line1).getByLabelText(/Price/), 'ten')
    await user.click(screen.getByRole('button', { name: 'Create purchase order' }))
    expect(within(line1).getByText('Each item needs a name.')).toBeTruthy()
    expect(within(line1).getByText('Each item needs a price, as a number.')).toBeTruthy()
    const form = screen.getByRole('form', { name: 'New purchase order' })
    expect(form.textContent).not.toMatch(/item_name|selling_price|alias|must not be empty|uuid/)
    expect(fake.calls.createPurchaseOrder).not.toHaveBeenCalled()
  })
})
