/**
 * The one rule a source's accepted kinds follow, for watched folders and mail rules alike: what it
 * narrows the kinds to must leave at least one kind its target takes.
 */
import type { AiTarget } from '../../schemas/routes'
import { allowedKinds } from './kinds'

/** Where a config schema's refinement puts its issues (zod's refinement context, as far as used). */
interface IssueSink {
  addIssue(issue: { code: 'custom'; path: string[]; message: string }): void
}

/** Names `message` at acceptedKinds when `kinds` leave the target nothing it takes. */
export function checkAcceptedKinds(
  ctx: IssueSink,
  target: AiTarget,
  kinds: readonly string[] | undefined,
  message: string,
): void {
  if (kinds && allowedKinds(target, kinds).length === 0) {
    ctx.addIssue({ code: 'custom', path: ['acceptedKinds'], message })
  }
}
