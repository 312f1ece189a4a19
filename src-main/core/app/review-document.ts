/**
 * The Review screen's document preview (issue 32): the page names an upload by its id and gets its
 * document's bytes and kind (../review/document.ts decides which local copy and where it may be).
 */
import type { Calls, ParsedReq } from '../../../contract'
import { AppError } from '../app-error'
import { readReviewDocument } from '../review/document'
import type { AppContext } from './context'
import type { Room } from './room'

export type ReviewDocumentRoom = Room<'review.document'>

export function reviewDocumentRoom(ctx: AppContext): ReviewDocumentRoom {
  return {
    async ['review.document'](req: ParsedReq<'review.document'>): Promise<Calls['review.document']> {
      const row = ctx.engine.uploads.get(req.uploadId)
      if (!row) throw new AppError('not_found', `There is no upload #${req.uploadId}.`)
      return readReviewDocument(row, {
        dataDir: ctx.dataDir,
        folderPath: (id) => ctx.engine.folders.get(id)?.path,
      })
    },
  }
}
