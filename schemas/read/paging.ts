/** A list's page meta (2.1: `data` must be a list, `meta` is optional). */
import { FIELD_ALIASES } from '../assumptions'
import { isObject, pickNum } from './primitives'

export interface PageMetaRead {
  page: number
  limit: number
  /** null when the server sends no total: screens then speak of the page's own length. */
  total: number | null
}

/** Page meta from an optional `meta`: what it says when it says it, else the page and limit asked for. */
export function readPageMeta(meta: unknown, asked: { page: number; limit: number }): PageMetaRead {
  const m = isObject(meta) ? meta : {}
  const whole = (v: number | null, min: number) => (v !== null && Number.isInteger(v) && v >= min ? v : null)
  return {
    page: whole(pickNum(m, FIELD_ALIASES.pageNumber), 1) ?? asked.page,
    limit: whole(pickNum(m, FIELD_ALIASES.pageLimit), 1) ?? asked.limit,
    total: whole(pickNum(m, FIELD_ALIASES.pageTotal), 0),
  }
}
