/**
 * Boots the BUILT main bundle (out/main/index.js, not the sources) in plain Node with 'electron'
 * resolved to the stand-in, and prints one JSON line of what the shell did: the URL the window
 * loaded, what the app:// protocol serves for the first page, the preload path, and the handlers.
 * Run by built-main.test.ts: node --import tsx --import ./test/shell/built/register.mjs boot.ts <dataDir>
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { FakeBrowserWindow, fake } from '../fake-electron'

const ROOT = resolve(import.meta.dirname, '../../..')
const out = join(ROOT, 'out')

async function main(): Promise<void> {
  fake.app.userData = process.argv[2]!
  process.argv.push('--no-demo')
  await import(pathToFileURL(join(out, 'main', 'index.js')).href)
  fake.app.makeReady()
  const until = Date.now() + 30_000
  while (!(FakeBrowserWindow.all[0]?.visible ?? false)) {
    if (Date.now() > until) throw new Error('no window within 30 s')
    await new Promise((r) => setTimeout(r, 20))
  }
  const win = FakeBrowserWindow.all[0]!
  const serve = fake.protocolHandlers.get('app')
  const served: { url: string; status: number; type: string | null; inRenderer: boolean }[] = []
  let refs: string[] = []
  if (serve && win.loaded.url) {
    const page = await serve(new Request(win.loaded.url))
    const html = await page.text()
    served.push({ url: win.loaded.url, status: page.status, type: page.headers.get('content-type'), inRenderer: true })
    // Every file the first page asks for: scripts, styles, modulepreloads, the icon.
    refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    for (const ref of refs) {
      const url = new URL(ref, win.loaded.url).href
      const r = await serve(new Request(url))
      const rel = new URL(url).pathname
      served.push({
        url,
        status: r.status,
        type: r.headers.get('content-type'),
        inRenderer: existsSync(join(out, 'renderer', rel)),
      })
    }
  }
  const preload = String(win.options.webPreferences['preload'])
  console.log(
    JSON.stringify({
      windows: FakeBrowserWindow.all.length,
      loadedUrl: win.loaded.url ?? null,
      loadedFile: win.loaded.file ?? null,
      privileged: fake.privilegedSchemes,
      served,
      refs,
      preload,
      preloadExists: existsSync(preload),
      handlers: fake.ipcHandlers.size,
      listeners: [...fake.ipcListeners.keys()],
    }),
  )
  process.exit(0)
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
