/**
 * The demo room: the embedded emulator and two profiles whose keys live in memory, never in the
 * keychain or on disk; and the demo's sample receipts. Core never imports the emulator: the host
 * (desktop, web host, tests) hands in a `DemoLauncher` that starts it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { IntakeOutcome, ProfileList } from '../../../contract'
import { AppError } from '../app-error'
import { MemorySecretStore, ProfileManager } from '../secrets'
import { DEFAULT_MAIL_PROMPTS, defaultMailKinds } from '../mail/config'
import { DemoInbox } from '../mail/demo-inbox'
import type { AppContext } from './context'
import type { Room } from './room'
import type { UploadsHelpers } from './uploads'
import { localDay } from '../util'

/** A running demo emulator, as the host started it. */
export interface DemoServer {
  /** The base URL, ending in the version prefix. */
  url: string
  keys: { businessKey: string; partnerKey: string; businessPublicKey: string }
  /**
   * Its control routes (faults, the create log, the clock): they answer only a request to the
   * loopback address that carries `headers` (a secret of this run), so no other local program can
   * read the uploads or inject faults. The host keeps it; nothing reaches the renderer.
   */
  control: { origin: string; headers: Record<string, string> }
  stop(): Promise<void>
}

/** What the host gives the app to run its demo (the emulator lives outside core). */
export interface DemoLauncher {
  start(): Promise<DemoServer>
  /** The demo's sample receipts (PDFs as Base64). */
  sampleReceipts(): Promise<{ name: string; base64: string }[]>
}

const DEMO_BUSINESS_NAME = 'Demo Bakery (demo)'
/** The demo's inbox (issue 24): an account and a rule held in memory, read once the person asks. */
export const DEMO_MAIL_ACCOUNT = 'demo-inbox'
const DEMO_MAIL_RULE = 'demo-inbox-rule'
const DEMO_PARTNER_NAME = 'Demo Partner (demo)'

export type DemoRoom = Room<'startDemo' | 'addSampleReceipts'> & {
  /** Stops the demo emulator (if it runs) and forgets its keys. */
  stopDemo(): Promise<void>
}

export function demoRoom(ctx: AppContext, launcher: DemoLauncher | undefined, uploads: UploadsHelpers): DemoRoom {
  let starting: Promise<void> | null = null

  const launch = async (): Promise<void> => {
    if (!launcher) throw new AppError('demo_unavailable', 'The demo is not available in this build: add a key in Settings.')
    const server = await launcher.start()
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-demo-'))
    const stop = async () => {
      await server.stop()
      await rm(dir, { recursive: true, force: true })
    }
    try {
      const manager = await ProfileManager.open({ dataDir: dir, store: new MemorySecretStore(), clientOptions: ctx.clientOptions })
      const { businessKey, partnerKey, businessPublicKey } = server.keys
      ctx.demo = {
        manager,
        secrets: [businessKey, partnerKey, businessPublicKey, ...Object.values(server.control.headers)],
        control: server.control,
        stop,
      }
      const env = { environment: 'custom' as const, baseUrl: server.url }
      const business = await ctx.addTo(manager, { ...env, name: DEMO_BUSINESS_NAME, kind: 'business', secret: businessKey })
      await ctx.addTo(manager, { ...env, name: DEMO_PARTNER_NAME, kind: 'partner', secret: partnerKey })
      await addDemoInbox(ctx, business.id, await launcher.sampleReceipts())
    } catch (e) {
      ctx.demo = null
      await stop()
      throw e
    }
    ctx.emitProfiles()
  }

  return {
    /** The demo's emulator and profiles (started once); the business profile becomes active. */
    async startDemo(): Promise<ProfileList> {
      if (!ctx.demo) {
        starting ??= launch().finally(() => (starting = null))
        await starting
      }
      const biz = ctx.demo?.manager.list().find((p) => p.kind === 'business')
      if (biz) await ctx.setActive(biz.id)
      return ctx.profileList()
    },

    /**
     * Demo only: the sample receipts dropped as expenses, exactly as a person's drop. Refused for a
     * real key: they would become expenses in real books.
     */
    async addSampleReceipts(): Promise<IntakeOutcome[]> {
      const e = ctx.activeBusiness()
      if (!e.demo || !launcher) {
        throw new AppError(
          'not_demo',
          'The sample receipts are for the demo only: they would become expenses in your real books. Switch to the demo profile, or drop your own receipts.',
        )
      }
      return uploads.addDropped(await launcher.sampleReceipts(), { target: 'expenses' })
    },

    async stopDemo(): Promise<void> {
      if (starting) await starting.catch(() => undefined)
      const demo = ctx.demo
      ctx.demo = null
      if (demo) {
        await (await ctx.engine.mail()).removeDemo(DEMO_MAIL_ACCOUNT).catch(() => undefined)
        await demo.stop()
      }
    },
  }
}

/**
 * The demo's inbox: sample mails around the sample receipts, in memory (no network), behind the
 * same interface as IMAP. Its account waits until the person reads it (Mail screen, "Read the demo
 * inbox"), so starting the demo sends nothing by itself.
 */
async function addDemoInbox(ctx: AppContext, profileId: string, samples: { name: string; base64: string }[]): Promise<void> {
  const now = Date.now()
  const inbox = new DemoInbox()
  inbox.seed(samples)
  const since = new Date(now - 30 * 86_400_000)
  const day = localDay(since)
  await (await ctx.engine.mail()).addDemo(
    inbox,
    {
      id: DEMO_MAIL_ACCOUNT,
      profileId,
      label: 'Demo inbox (demo)',
      kind: 'demo',
      host: 'demo.invalid',
      port: 993,
      security: 'tls',
      user: 'receipts@demo-bakery.example',
      usePolling: false,
      pollSeconds: 60,
      enabled: false,
      addedAt: now,
    },
    [
      {
        id: DEMO_MAIL_RULE,
        accountId: DEMO_MAIL_ACCOUNT,
        mailbox: 'INBOX',
        fromContains: null,
        subjectContains: null,
        since: day,
        target: 'expenses',
        promptTemplate: DEFAULT_MAIL_PROMPTS.expenses,
        acceptedKinds: defaultMailKinds('expenses'),
        after: 'seen',
        moveTo: 'Bookdrop/Done',
        sendBody: false,
        processType: 'async',
        enabled: true,
        addedAt: now,
      },
    ],
  )
}
