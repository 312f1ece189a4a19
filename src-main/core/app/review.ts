/** The review room (issue 32): the records Bookdrop created, their flags, edits and the month's money. */
import { AppError } from '../app-error'
import type { AppContext } from './context'
import type { Room } from './room'

export type ReviewRoom = Room<
  'review.list' | 'review.get' | 'review.save' | 'review.setReviewed' | 'review.money' | 'review.setCurrency'
>

export function reviewRoom(_ctx: AppContext): ReviewRoom {
  const later = async (): Promise<never> => {
    throw new AppError('not_ready', 'Review is being built (issue 32): the contract is in place.')
  }
  return {
    'review.list': later,
    'review.get': later,
    'review.save': later,
    'review.setReviewed': later,
    'review.money': later,
    'review.setCurrency': later,
  }
}
