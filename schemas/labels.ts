/**
 * Display labels shared by main (tray, notifications, CLI) and the renderer. Pure data: this file
 * imports nothing at run time, so the renderer's first chunk can use it without pulling in zod.
 */
import type { AiTarget } from './api'

export const TARGET_LABELS: Record<AiTarget, string> = {
  expenses: 'Expenses (receipts)',
  bills: 'Bills',
  invoices: 'Invoices',
  income: 'Income',
  journals: 'Journals',
  contacts: 'Contacts',
  accounts: 'Chart of accounts',
  'bank-transactions': 'Bank statement upload',
}
