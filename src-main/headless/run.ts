/**
 * One headless run, from good arguments to its exit code: the connection (or `--check`), the
 * engine, the folder and the mailboxes of this command line, then either `--once` (settle, never
 * longer than --max-wait) or watching until a signal; and the end, which stops sending, prints the
 * summary and closes everything. The engine and what only it needs load here, after the arguments.
 */
import { mkdir } from 'node:fs/promises'
import type { Engine } from '../core/engine'
import { printable } from '../core/names'
import { temporaryDataDir } from '../core/paths'
import { type Args, EXIT } from './args'
import { checkConnection } from './check'
import { type Connection, clientBasics, connect } from './connect'
import { heldActions } from './held'
import { mailPasswordSource, mailRules } from './mail'
import { type FinishReason, followEvents, lineWriter, printStart, printSummary } from './output'

export async function run(
  args: Args,
  stopped: Promise<string>,
  signalled: () => string | null,
): Promise<number> {
  if (!args.temporaryData) return runIn(args, stopped, signalled)
  // A demo leaves no trace: its data lives in a temporary folder, removed at the end.
  const temporary = await temporaryDataDir()
  try {
    return await runIn({ ...args, dataDir: temporary.dir }, stopped, signalled)
  } finally {
    await temporary.remove()
  }
}

async function runIn(args: Args, stopped: Promise<string>, signalled: () => string | null): Promise<number> {
  const basics = await clientBasics(args)
  if (!basics) return EXIT.usage
  await mkdir(args.dataDir, { recursive: true, mode: 0o700 })
  let conn: Connection
  try {
    conn = await connect(args, basics)
  } catch (e) {
    console.error((e as Error).message)
    return 2
  }
  if (args.check) {
    try {
      return await checkConnection(conn)
    } finally {
      await conn.close()
    }
  }
  const [{ Engine }, { startupRefusal }, { describeUpload, summaryLine }] = await Promise.all([
    import('../core/engine'),
    import('../core/store/data-dir'),
    import('../core/report'),
  ])
  let engine: Engine
  try {
    engine = await Engine.open({
      dataDir: args.dataDir,
      clients: conn.clients,
      // Only the mailboxes of this command line are read (started below).
      mail: { autoStart: false, ...(args.mail.length ? { passwords: await mailPasswordSource() } : {}) },
      queue: {
        ...(args.concurrency ? { concurrency: args.concurrency } : {}),
        ...(args.jobTimeoutMs ? { jobTimeoutMs: args.jobTimeoutMs } : {}),
      },
      resetQueue: args.resetQueue,
      // An internal switch for the bench (scripts/bench/fingerprint.ts), not an option for people.
      ...(process.env.BOOKDROP_FINGERPRINTS === 'off' ? { fingerprints: false } : {}),
    })
  } catch (e) {
    await conn.close()
    // The two ways a data directory cannot be used: one message naming the file or the other
    // process, and the way out; no stack trace, and an exit code of their own.
    const refused = startupRefusal(e, args.dataDir)
    if (refused) {
      console.error(refused.message)
      return refused.code
    }
    // Anything else: one line, no stack trace.
    console.error(`bookdrop: could not start: ${(e as Error).message}`)
    return EXIT.failed
  }
  printStart(args, engine, conn)
  const out = lineWriter()
  const { seen, failed: failedViews, mailLabels } = followEvents(engine, out, args.once, describeUpload)
  // Issue 33: this run's --duplicates, then --discard-held / --send-held / --held (./held.ts).
  const held = await heldActions(engine, conn.profileId, args, out, describeUpload)
  out.flush()
  for (const p of held.problems) console.error(printable(`bookdrop: ${p}`))
  // Acting on held rows alone: like --once with nothing to read (what was sent anyway is followed).
  const once = args.once || (args.watch.length === 0 && args.mail.length === 0)

  // Every --watch is watched (a folder already saved in the data directory is updated).
  for (const path of args.watch) {
    const existing = engine.folders
      .list()
      .find((f) => f.path === path && f.profileId === conn.profileId && f.target === args.target)
    const folderInput = {
      profileId: conn.profileId,
      path,
      target: args.target,
      promptTemplate: args.prompt,
      recursive: args.recursive,
      afterUpload: args.afterUpload,
      takeExisting: true,
    }
    try {
      if (existing) await engine.updateFolder(existing.id, folderInput)
      else await engine.addFolder(folderInput)
    } catch (e) {
      console.error(printable(`cannot watch ${path}: ${(e as Error).message}`))
      await engine.close()
      await conn.close()
      return 2
    }
  }

  let ruleIds: string[]
  try {
    ruleIds = await mailRules(engine, args, conn.profileId, mailLabels)
  } catch (e) {
    console.error(`cannot read mail: ${(e as Error).message}`)
    await engine.close()
    await conn.close()
    return 2
  }
  const mailProblems: string[] = []

  /**
   * Stops sending (requests in flight are aborted: their rows wait, same key, for the next start),
   * prints the summary and, for --once, what is left; closes everything.
   */
  const finish = async (why: FinishReason): Promise<number> => {
    await engine.stopSending()
    const left = [
      ...engine.uploads.iterate({
        statuses: ['queued', 'uploading', 'waiting_retry', 'processing'],
        profileId: conn.profileId,
      }),
    ]
    const profileState = engine.profileState(conn.profileId)
    const failed = [...failedViews.values()]
    out.flush()
    printSummary({
      summary: summaryLine([...seen.values()].map((status) => ({ status }))),
      failed,
      mailProblems,
      left,
      held: profileState,
      args: { ...args, once },
      why,
    })
    await engine.close()
    await conn.close()
    if (failed.length > 0) return EXIT.failed
    if (mailProblems.length > 0) return EXIT.mail
    if (held.problems.length > 0) return EXIT.usage
    return once && left.length > 0 ? EXIT.unfinished : EXIT.ok
  }
  const announce = (signal: string): void => {
    out.flush()
    console.log(
      `bookdrop: ${signal}, stopping (unfinished uploads resume next time); press Ctrl+C again to stop at once`,
    )
  }

  if (once) {
    // The initial scan (and the mailboxes) queued what was there; wait for hashing, uploads and jobs
    // to settle, then mails whose receipts all have records get their after-action; never longer
    // than --max-wait, and stop at once on a signal.
    let timer: NodeJS.Timeout | undefined
    const settle = async (): Promise<'idle'> => {
      const mail = ruleIds.length > 0 ? await engine.mail() : null
      const [, readProblems] = await Promise.all([engine.rescan(), mail?.readOnce(ruleIds) ?? []])
      mailProblems.push(...readProblems.map((e) => e.message))
      await engine.whenIdle()
      if (mail) mailProblems.push(...(await mail.actOnce(ruleIds)).map((e) => e.message))
      return 'idle'
    }
    const outcome = await Promise.race([
      settle(),
      new Promise<'max-wait'>((r) => {
        timer = setTimeout(() => r('max-wait'), args.maxWaitMs)
      }),
      stopped.then(() => 'signal' as const),
    ])
    clearTimeout(timer)
    if (outcome === 'signal') announce(signalled() ?? 'signal')
    else if (outcome === 'max-wait') {
      out.flush()
      console.log(`bookdrop: --max-wait of ${args.maxWaitMs / 1000} s passed, stopping`)
    }
    return finish(outcome)
  }

  if (ruleIds.length > 0) (await engine.mail()).start(ruleIds)
  const signal = await stopped
  announce(signal)
  return finish('signal')
}
