/**
 * Issue 33 on the command line: the possible duplicates held for a person, listed (`--held`), sent
 * anyway (`--send-held <id>`) or discarded (`--discard-held <id>`), each its own line; and this
 * run's choice `--duplicates hold|send` over the profile's setting.
 */
import type { UploadView } from '../../contract/types'
import type { Engine } from '../core/engine'
import type { Args } from './args'
import type { LineWriter } from './output'

export interface HeldOutcome {
  /** Rows sent anyway: the run waits for them. */
  sent: number
  /** What could not be done, one sentence each (the run exits 2). */
  problems: string[]
}

/** Applies this run's --duplicates, then --discard-held, --send-held and --held, in that order. */
export async function heldActions(
  engine: Engine,
  profileId: string,
  args: Pick<Args, 'duplicates' | 'listHeld' | 'sendHeld' | 'discardHeld'>,
  out: LineWriter,
  describeUpload: (u: UploadView) => string,
): Promise<HeldOutcome> {
  if (args.duplicates) engine.held.setRunMode(profileId, args.duplicates)
  const problems: string[] = []
  /** The row, if it is a held one of this profile; else a sentence in `problems`. */
  const heldRow = (id: number, flag: string) => {
    const row = engine.uploads.get(id)
    if (!row || row.profileId !== profileId) {
      problems.push(`${flag} ${id}: there is no upload #${id} for this profile (--held lists the held ones)`)
      return null
    }
    if (row.status !== 'held') {
      problems.push(`${flag} ${id}: upload #${id} is ${row.status}, not held: nothing to do`)
      return null
    }
    return row
  }
  for (const id of args.discardHeld) {
    if (!heldRow(id, '--discard-held')) continue
    try {
      engine.held.discard(id)
    } catch (e) {
      problems.push(`--discard-held ${id}: ${(e as Error).message}`)
    }
  }
  let sent = 0
  for (const id of args.sendHeld) {
    if (!heldRow(id, '--send-held')) continue
    try {
      await engine.retry(id)
      sent++
    } catch (e) {
      problems.push(`--send-held ${id}: ${(e as Error).message}`)
    }
  }
  if (args.listHeld) {
    const rows = engine.held.list(profileId)
    for (const row of rows) out.line(describeUpload(engine.uploads.view(row)))
    out.line(
      rows.length === 0
        ? 'held: no possible duplicate is waiting for you'
        : `held: ${rows.length} possible duplicate${rows.length === 1 ? '' : 's'} waiting for you: --send-held <id> sends one anyway, --discard-held <id> discards it`,
    )
  }
  return { sent, problems }
}
