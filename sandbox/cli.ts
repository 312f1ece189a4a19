/**
 * `npm run sandbox -- [--port <n>] [--fixtures <file.json>] [--variant default|spec-minimal]`
 * Starts the emulator on 127.0.0.1 and prints `listening on http://127.0.0.1:<n>/v1`; with no
 * fixtures it also prints the keys of the demo business and partner it seeds.
 *
 * Exit codes: 0 after SIGINT/SIGTERM, 1 when the server cannot start (port in use...), 2 for bad
 * arguments or a bad fixtures file. Every failure is one readable message on stderr, never a stack.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { describeIssues } from '../schemas'
import { type Fixtures, type Sandbox, type SandboxVariant, SANDBOX_VARIANTS, startSandbox } from './index'
import { isSandboxVariant } from './variants'
import { fixturesSchema } from './state'

const USAGE = `usage: npm run sandbox -- [--port <n>] [--fixtures <file.json>] [--variant ${SANDBOX_VARIANTS.join('|')}]`
const DEFAULT_PORT = 4010

/** A failure the user can fix: printed as one line, then the process exits with `code`. */
class CliError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message)
  }
}

interface Cli {
  help: boolean
  port: number
  fixturesPath: string | undefined
  variant: SandboxVariant
}

function parseCli(argv: string[]): Cli {
  let values: { port?: string; fixtures?: string; variant?: string; help?: boolean }
  try {
    ;({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        fixtures: { type: 'string' },
        variant: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }))
  } catch (e) {
    throw new CliError(`${(e as Error).message}\n${USAGE}`, 2)
  }
  const rawPort = values.port ?? String(DEFAULT_PORT)
  const port = /^\d+$/.test(rawPort) ? Number(rawPort) : NaN
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`--port must be a whole number from 0 to 65535, got "${rawPort}"`, 2)
  }
  const variant = values.variant ?? 'default'
  if (!isSandboxVariant(variant)) {
    throw new CliError(`--variant must be ${SANDBOX_VARIANTS.join(' or ')}, got "${variant}"`, 2)
  }
  return { help: values.help ?? false, port, fixturesPath: values.fixtures, variant }
}

/** Reads and validates a fixtures file; any problem names the file and, for schema errors, each bad field. */
function loadFixtures(path: string): Fixtures {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    throw new CliError(`could not read fixtures from ${path}: ${(e as Error).message}`, 2)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new CliError(`fixtures file ${path} is not valid JSON: ${(e as Error).message}`, 2)
  }
  const parsed = fixturesSchema.safeParse(json)
  if (!parsed.success) {
    throw new CliError(`fixtures file ${path} is not valid: ${describeIssues(parsed.error)}`, 2)
  }
  return parsed.data
}

export async function main(argv: string[]): Promise<void> {
  const { help, port, fixturesPath, variant } = parseCli(argv)
  if (help) {
    console.log(USAGE)
    return
  }
  const fixtures = fixturesPath === undefined ? undefined : loadFixtures(fixturesPath)

  // Signal handlers go in before anything is printed: a supervisor that sends SIGTERM as soon as it
  // reads the listening line must get a clean exit 0, not the default kill.
  let sb: Sandbox | undefined
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    if (!sb) process.exit(0) // still starting: nothing to close yet
    sb.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(`error while stopping: ${(e as Error).message}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)

  try {
    sb = await startSandbox({ port, fixtures, variant })
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    if (err.code === 'EADDRINUSE') {
      throw new CliError(`port ${port} on 127.0.0.1 is in use: choose another with --port <n>`, 1)
    }
    if (err.code === 'EACCES') {
      throw new CliError(`not allowed to listen on port ${port}: choose a port above 1023 with --port <n>`, 1)
    }
    throw new CliError(`could not start the sandbox: ${err.message}`, 1)
  }

  console.log(`listening on ${sb.url}`)
  if (variant !== 'default') console.log(`variant: ${variant} (answers carry only what api-spec.md names)`)
  if (sb.demo) {
    // The emulator's own demo keys: they exist only in this process and only work against it.
    console.log(`demo business key: ${sb.demo.businessKey}`)
    console.log(`demo business public key: ${sb.demo.businessPublicKey}`)
    console.log(`demo partner key: ${sb.demo.partnerKey}`)
  }
}

/**
 * Runs the CLI: undefined once the emulator listens (it runs until a signal), or the exit code of a
 * failure, after saying why on stderr.
 */
export async function run(argv: string[]): Promise<number | undefined> {
  try {
    await main(argv)
    return undefined
  } catch (e) {
    if (e instanceof CliError) {
      console.error(e.message)
      return e.code
    }
    console.error(`sandbox failed: ${e instanceof Error ? e.message : String(e)}`)
    return 1
  }
}

// Run when executed directly (tsx sandbox/cli.ts); bin/bookdrop.mjs imports the bundle and calls run().
if (process.argv[1] && /sandbox[\\/]cli\.(ts|js|mjs)$/.test(process.argv[1])) {
  void run(process.argv.slice(2)).then((code) => {
    if (code !== undefined) process.exit(code)
  })
}
