import { formatCompactDateTime } from '../../lib/format'
import { columnWidth } from '../../lib/measure'

/** The history table's geometry: its row height, its columns and the width of its dates. */

export const ROW_HEIGHT = 40
/**
 * The columns and their priority: 2 hides under 600 px of table, 3 under 760 px (app.css, container
 * queries on .vtable). What hides is shown for the focused row under the table, and the record's
 * action is in the row's menu too. A completed row's Details is what it became ("Flour Mills ·
 * 3 Mar 2026 · ₦12,400.00"), which opens the record on Review.
 */
export const COLUMNS = [
  { label: 'Added', priority: 1 },
  { label: 'File', priority: 1 },
  { label: 'Source', priority: 3 },
  { label: 'Target', priority: 3 },
  { label: 'Status', priority: 1 },
  { label: 'Details', priority: 2 },
  { label: 'Actions', priority: 1 },
] as const
export const colClass = (priority: number) => `vtable__cell${priority > 1 ? ` col-p${priority}` : ''}`

let addedWidth: string | null = null
/**
 * The "Added" column's width: the widest short date and time this locale writes (two-digit days,
 * months and hours, morning and afternoon), so no row's date is ever cut (issue 26).
 */
export function addedColumnWidth(): string {
  if (addedWidth === null) {
    const samples: string[] = []
    for (const month of [0, 4, 8, 9, 10, 11])
      for (const hour of [10, 22])
        samples.push(formatCompactDateTime(new Date(2026, month, 28, hour, 58).getTime()))
    addedWidth = columnWidth('Added', samples)
  }
  return addedWidth
}
