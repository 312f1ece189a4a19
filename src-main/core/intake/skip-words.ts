/**
 * What a skipped row says (issue 34): its English sentence (`skipMessage`) and, where the catalogue
 * has it, the same as a Coded (`skipCoded`) so the history words it in the person's language.
 */
import { type AiTarget, fileKind } from '../../../schemas/routes'
import { type CodedParams, coded, type MessageDescriptor } from '../../../contract/coded'
import type { Coded } from '../../../contract/message'
import { MAIN_ERRORS as E } from '../../../contract/main-messages'
import { printable } from '../names'
import type { SkipReason } from '../store/uploads'
import { sizeText } from '../util'

/** What a row's skip reason says, as a Coded where the catalogue has the sentence (issue 34). */
export function skipCoded(reason: SkipReason, ctx: Parameters<typeof skipMessage>[1]): string | Coded {
  const text = skipMessage(reason, ctx)
  const kindOf = printable(fileKind(ctx.name))
  const say = (m: MessageDescriptor, params?: CodedParams): Coded => ({ ...coded(m, params), text })
  switch (reason) {
    case 'too_large':
      return say(E.fileTooLarge, { size: sizeText(ctx.size ?? 0), limit: sizeText(ctx.limit ?? 0) })
    case 'empty':
      return say(E.fileEmpty)
    case 'vanished':
      return say(E.fileVanished)
    case 'outside_folder':
      return say(E.fileOutsideFolder)
    case 'unreadable':
      return say(ctx.detail === 'EACCES' || ctx.detail === 'EPERM' ? E.fileNoPermission : E.fileUnreadable)
    case 'unsupported_kind':
      return ctx.mail ? text : say(E.fileUnsupported, { kind: kindOf ? `.${kindOf}` : '—', accepted: (ctx.kinds ?? []).join(', ') })
    default:
      return text
  }
}


export function skipMessage(
  reason: SkipReason,
  ctx: {
    name: string
    target: AiTarget
    kinds?: readonly string[]
    size?: number
    limit?: number
    detail?: string
    /** A part of a mail (it is kept in Bookdrop's data folder, not saved by a person). */
    mail?: boolean
  },
): string {
  const kindOf = printable(fileKind(ctx.name))
  if (ctx.mail && reason === 'unsupported_kind')
    return `Not a receipt kind: ${kindOf ? `.${kindOf}` : 'no extension'} (this rule takes ${(ctx.kinds ?? []).join(', ')}). The attachment was kept, not sent; choose "Send anyway" to send it.`
  if (ctx.mail && reason === 'empty') return 'The attachment is an empty file (0 bytes): there is nothing to send.'
  switch (reason) {
    case 'unsupported_kind': {
      const kind = kindOf
      return `${kind ? `.${kind}` : 'Files without an extension'} files are not sent to ${ctx.target}. Accepted: ${(ctx.kinds ?? []).join(', ')}. Rename or convert the file, or choose "Send anyway".`
    }
    case 'too_large':
      return `The file is ${sizeText(ctx.size ?? 0)}, over the ${sizeText(ctx.limit ?? 0)} limit. Compress it or raise the limit in Settings, then retry.`
    case 'empty':
      return 'The file is empty (0 bytes). Save it again, then retry.'
    case 'unreadable':
      return `Bookdrop cannot read this file${ctx.detail ? ` (${ctx.detail})` : ''}. Check its permissions, then retry.`
    case 'vanished':
      return 'The file was moved or deleted before it could be sent.'
    case 'existed_before':
      return 'The file was already in the folder when it was added.'
    case 'outside_folder':
      return `A link to a file outside the watched folder${ctx.detail ? ` (${printable(ctx.detail)})` : ''}; not sent. Bookdrop reads only files inside the folder: copy the file in, or drop it on the window.`
    case 'mismatch':
      return `The file is ${ctx.detail ?? 'not what its name says'}: it was not sent. Check the file, or choose "Send anyway".`
    case 'not_prepared':
      return `Bookdrop could not prepare this photo${ctx.detail ? `: ${ctx.detail}` : ''}. Nothing was sent. Save it again as a JPEG, or choose "Send anyway" to send it as it is.`
    case 'no_receipt':
      return 'No receipt in this mail (no PDF or image attached): it was left untouched. Choose "Send anyway" to send the text of the mail instead.'
  }
}

