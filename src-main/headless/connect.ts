/**
 * Whose key the headless run uses and how its requests travel: the demo emulator, a profile of the
 * OS keychain or BOOKDROP_API_KEY, through the environment's proxy, trusting Node's and the
 * system's certificate authorities plus --ca-file. The client, the keychain and the emulator load
 * only when this run needs them.
 */
import { readFile } from 'node:fs/promises'
import type { Network } from '../core/api/network'
import type { ClientProvider } from '../core/queue/queue'
import { type Args, UsageError } from './args'

/**
 * Where requests go and whom they trust: the environment's proxy (HTTPS_PROXY, HTTP_PROXY,
 * NO_PROXY), Node's and the system's certificate authorities, and --ca-file. Made with the first
 * request (an engine that only watches loads no TLS or proxy code).
 */
function networkOf(caPem: string | null): () => Promise<Network> {
  let made: Promise<Network> | undefined
  return () =>
    (made ??= import('../core/api/network').then(({ Network }) => new Network({ extraCaPem: caPem })))
}

/** What every client of this run is given. */
export interface ClientBasics {
  network: () => Promise<Network>
  timeoutMs: number
}

export interface Connection {
  profileId: string
  label: string
  clients: ClientProvider
  close(): Promise<void>
}

/**
 * The network and deadline of this run's clients, with --ca-file read and checked now; null (the
 * reason printed) when the file cannot be read or holds no certificate.
 */
export async function clientBasics(args: Args): Promise<ClientBasics | null> {
  let caPem: string | null = null
  if (args.caFile) {
    try {
      caPem = await readFile(args.caFile, 'utf8')
      const { readCaPem } = await import('../core/api/network')
      readCaPem(caPem, `--ca-file ${args.caFile}`)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      console.error(code ? `--ca-file ${args.caFile} cannot be read (${code})` : (e as Error).message)
      return null
    }
  }
  return { network: networkOf(caPem), timeoutMs: args.timeoutMs }
}

/** A provider failure the queue understands: the profile waits for a key instead of failing files one by one. */
function noKey(message: string): Error & { status: number; errorCode: string; retryable: boolean } {
  return Object.assign(new Error(message), { status: 0, errorCode: 'no_key', retryable: false })
}

/**
 * Clients for one key given on the command line or by the demo (no keychain involved). The client
 * and the API schemas load with the first request, not at start: an engine that only watches costs
 * less (issue 14).
 */
function fixedKeyClients(
  target: { environment: 'custom'; baseUrl: string } | { environment: 'production' },
  key: string,
  basics: ClientBasics,
): ClientProvider {
  return {
    clientFor: async (_id, onRateLimit) => {
      const { BookkeepingClient } = await import('../core/api')
      return new BookkeepingClient({
        ...target,
        auth: { key },
        network: await basics.network(),
        timeoutMs: basics.timeoutMs,
        timeoutHint: '--timeout',
        onResponse: (i) => i.rateLimit && onRateLimit(i.rateLimit),
      })
    },
  }
}

export async function connect(args: Args, basics: ClientBasics): Promise<Connection> {
  if (args.demo) {
    const { startSandbox } = await import('../../sandbox')
    const sb = await startSandbox({ port: 0 })
    const key = sb.demo!.businessKey
    return {
      profileId: 'demo',
      label: `demo emulator at ${sb.url}`,
      clients: fixedKeyClients({ environment: 'custom', baseUrl: sb.url }, key, basics),
      close: () => sb.stop(),
    }
  }
  if (args.profile) {
    const { ProfileManager, openSecretStore } = await import('../core/secrets')
    const { store, problem } = await openSecretStore()
    const manager = await ProfileManager.open({ dataDir: args.dataDir, store })
    const profile = manager.findByName(args.profile)
    if (!profile) {
      const names = manager.list().map((p) => p.name)
      throw new UsageError(
        `no profile named "${args.profile}"${names.length ? `; profiles: ${names.join(', ')}` : ''}`,
      )
    }
    if (profile.kind === 'partner')
      throw new UsageError(`"${profile.name}" is a partner profile: uploads need a business profile`)
    if (problem) console.error(`note: ${problem}`)
    return {
      profileId: profile.id,
      label: `profile "${profile.name}"`,
      clients: {
        clientFor: async (id, onRateLimit) => {
          try {
            return await manager.clientFor(id, {
              network: await basics.network(),
              timeoutMs: basics.timeoutMs,
              timeoutHint: '--timeout',
              onResponse: (i) => i.rateLimit && onRateLimit(i.rateLimit),
            })
          } catch (e) {
            throw noKey((e as Error).message)
          }
        },
      },
      close: async () => {},
    }
  }
  const key = process.env.BOOKDROP_API_KEY?.trim()
  if (!key) {
    throw new UsageError(
      'no key: pass --profile <name>, set BOOKDROP_API_KEY (with --base-url for a custom server), or try --demo',
    )
  }
  const target = args.baseUrl
    ? { environment: 'custom' as const, baseUrl: args.baseUrl }
    : { environment: 'production' as const }
  // Checked now so a bad base URL or a public key fails before anything is watched.
  const { clientSettings } = await import('../core/api/credentials')
  clientSettings({ ...target, auth: { key } })
  return {
    profileId: 'env',
    label: `BOOKDROP_API_KEY at ${args.baseUrl ?? 'production'}`,
    clients: fixedKeyClients(target, key, basics),
    close: async () => {},
  }
}

