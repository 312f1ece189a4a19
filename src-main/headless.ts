/**
 * Bookdrop without a window:
 *
 *   npm run headless -- --watch <dir> [--watch <dir>…] --target expenses [--base-url <url>] [--profile <name>]
 *                       [--data-dir <dir>] [--prompt <text>] [--after-upload leave|move] [--once] [--demo]
 *                       [--max-wait <s>] [--timeout <s>] [--ca-file <pem>]
 *   npm run headless -- --check [--base-url <url> | --profile <name> | --demo] [--ca-file <pem>]
 *   npm run headless -- --mail imaps://me%40example.com@imap.example.com/INBOX [--watch <dir>] …
 *                       [--mail-after leave|seen|move:<mailbox>] [--mail-from <text>] [--mail-subject <text>]
 *                       [--mail-since YYYY-MM-DD] [--mail-body]
 *
 * Mail (issue 24): each --mail is a mailbox read by a rule; its password comes from
 * BOOKDROP_MAIL_PASSWORD or the OS keychain (`mail:<user>@<host>:<port>`), never the command line.
 *
 * The key comes from --profile (the OS keychain) or BOOKDROP_API_KEY; --demo starts the embedded
 * emulator and uses its demo key. One line per file as it moves, and a summary. SIGINT/SIGTERM stop
 * every mode cleanly: requests in flight are aborted (their Idempotency-Key keeps them safe), the
 * summary is printed, and a restart resumes. --once handles what is in the folder, waits for every
 * job (at most --job-timeout seconds each) but never longer than --max-wait in all, prints the
 * summary and what is left, and exits 0 only if every file is done. Requests go through
 * HTTPS_PROXY / HTTP_PROXY (NO_PROXY honoured; loopback never proxied) and trust Node's and the
 * system's certificate authorities, plus --ca-file.
 *
 * Exit codes: 0 done, 1 a file failed, 2 usage, 3 the queue database cannot be read (start again
 * with --reset-queue to move it aside), 4 another Bookdrop process has this data directory, 5 files
 * are left unfinished (--max-wait passed, a stop, or a problem only a person can fix), or --check
 * found no working API, 6 a mail account could not be read (--once; the line names the account and
 * what to do), 7 a second SIGINT or SIGTERM while it was stopping ended it at once (unfinished
 * uploads resume next time).
 */
import { type Args, EXIT, HelpRequested, parse } from './headless/args'
import { run } from './headless/run'

// The parts (src-main/headless/): args.ts the command line, connect.ts the key and the network,
// check.ts `--check`, mail.ts the mailboxes, output.ts the lines, run.ts the run and its end. Only
// what parsing needs is loaded up front: `--help` answers at once, the engine loads after parsing.
export { DEFAULT_MAX_WAIT_S, DEFAULT_TIMEOUT_S, EXIT } from './headless/args'

/** A repeat of a signal this soon after the first is the same Ctrl+C, not a second one. */
const SAME_SIGNAL_MS = 300

export async function main(argv: string[]): Promise<number> {
  let args: Args
  try {
    args = await parse(argv)
  } catch (e) {
    if (e instanceof HelpRequested) {
      console.log(e.message)
      return EXIT.ok
    }
    console.error((e as Error).message)
    return EXIT.usage
  }
  // A stop asked for at any point of the run (handlers first: a SIGTERM during --once must print
  // the summary, not kill the process). A second signal while it is finishing ends the process at
  // once: nothing is lost (every row is in the database, a request cut off is sent again with its
  // Idempotency-Key at the next start), only the summary is not printed.
  let signalled: string | null = null
  let firstAt = 0
  let onSignal: ((signal: string) => void) | null = null
  const stopped = new Promise<string>((resolveStop) => {
    onSignal = (signal) => {
      if (!signalled) {
        signalled = signal
        firstAt = Date.now()
        resolveStop(signal)
        return
      }
      // One Ctrl+C can arrive twice (the terminal's, and the same one relayed by npm or tsx).
      if (Date.now() - firstAt < SAME_SIGNAL_MS) return
      process.stdout.write(
        `bookdrop: second ${signal}: stopped at once, without finishing (unfinished uploads resume next time)\n`,
      )
      process.exit(EXIT.forced)
    }
  })
  const handlers = { SIGINT: () => onSignal?.('SIGINT'), SIGTERM: () => onSignal?.('SIGTERM') }
  process.on('SIGINT', handlers.SIGINT)
  process.on('SIGTERM', handlers.SIGTERM)
  try {
    return await run(args, stopped, () => signalled)
  } finally {
    process.off('SIGINT', handlers.SIGINT)
    process.off('SIGTERM', handlers.SIGTERM)
  }
}

// Run when executed directly (tsx src-main/headless.ts, or the built file).
if (process.argv[1] && /headless\.(ts|js|mjs)$/.test(process.argv[1])) {
  void main(process.argv.slice(2)).then((code) => process.exit(code))
}
