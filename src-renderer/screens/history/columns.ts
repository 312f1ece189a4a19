import { defineMessages } from 'react-intl'
import { getIntl } from '../../lib/i18n'
import { formatCompactDateTime } from '../../lib/format'
import { columnWidth } from '../../lib/measure'
import messages from './columns.messages.json' with { type: 'json' }

/** The history table's geometry: its row height, its columns and the width of its dates. */

export const ROW_HEIGHT = 40
/**
 * The columns and their priority: 2 hides under 600 px of table, 3 under 760 px (app.css, container
 * queries on .vtable). What hides is shown for the focused row under the table, and the record's
 * action is in the row's menu too. A completed row's Details is what it became ("Flour Mills ·
 * 3 Mar 2026 · ₦12,400.00"), which opens the record on Review.
 */
const m = defineMessages(messages.m)

export const COLUMNS = [
  { key: 'added', label: m.added, priority: 1 },
  { key: 'file', label: m.file, priority: 1 },
  { key: 'source', label: m.source, priority: 3 },
  { key: 'target', label: m.target, priority: 3 },
  { key: 'status', label: m.status, priority: 1 },
  { key: 'details', label: m.details, priority: 2 },
  { key: 'actions', label: m.actions, priority: 1 },
] as const
export const colClass = (priority: number) => `vtable__cell${priority > 1 ? ` col-p${priority}` : ''}`

let addedWidth: { locale: string; width: string } | null = null
/**
 * The "Added" column's width: the widest short date and time this locale writes (two-digit days,
 * months and hours, morning and afternoon), so no row's date is ever cut (issue 26).
 */
export function addedColumnWidth(): string {
  const intl = getIntl()
  if (addedWidth?.locale !== intl.locale) {
    const samples: string[] = []
    for (const month of [0, 4, 8, 9, 10, 11])
      for (const hour of [10, 22])
        samples.push(formatCompactDateTime(new Date(2026, month, 28, hour, 58).getTime()))
    addedWidth = { locale: intl.locale, width: columnWidth(intl.formatMessage(m.added), samples) }
  }
  return addedWidth.width
}
