/**
 * The phone's page as the listener serves it: the built `phone/index.html` of the renderer
 * (src-renderer/phone/, an entry of its own in electron.vite.config.ts) and exactly the files it
 * names under assets/, read once into memory. Nothing else of out/renderer is reachable from a
 * phone: not the app's page, not its scripts.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

export interface PhonePage {
  html: Buffer
  /** `/assets/<file>` → its bytes and type. */
  assets: Map<string, { body: Buffer; type: string }>
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
}

/** Reads the phone's page from a built renderer folder (out/renderer). */
export async function loadPhonePage(rendererDir: string): Promise<PhonePage> {
  let html: string
  try {
    html = await readFile(join(rendererDir, 'phone', 'index.html'), 'utf8')
  } catch {
    throw new Error(`The phone's page is not built (${join(rendererDir, 'phone', 'index.html')}): run npm run build.`)
  }
  const assets = new Map<string, { body: Buffer; type: string }>()
  const refs = [...html.matchAll(/(?:src|href)="((?:\.\.?\/|\/)?assets\/([A-Za-z0-9_-][A-Za-z0-9._-]*\.(js|css)))"/g)]
  for (const [, ref, file, ext] of refs) {
    assets.set(`/assets/${file!}`, { body: await readFile(join(rendererDir, 'assets', file!)), type: TYPES[ext!]! })
    html = html.replace(ref!, `/assets/${file!}`)
  }
  // The scripts those scripts import, also on demand (the phone's language catalogue, issue 34):
  // only files the page's own scripts name, so nothing else of out/renderer becomes reachable.
  const pending = [...assets.values()].filter((a) => a.type === TYPES.js).map((a) => a.body)
  for (let body = pending.pop(); body; body = pending.pop()) {
    for (const [, file] of body.toString('utf8').matchAll(/["'`](?:\.\/|\/?assets\/)([A-Za-z0-9_-][A-Za-z0-9._-]*\.js)["'`]/g)) {
      if (assets.has(`/assets/${file!}`)) continue
      let script: Buffer
      try {
        script = await readFile(join(rendererDir, 'assets', file!))
      } catch {
        continue // a name in a string that is not one of the built files
      }
      assets.set(`/assets/${file!}`, { body: script, type: TYPES.js! })
      pending.push(script)
    }
  }
  if (![...assets.keys()].some((k) => k.endsWith('.js'))) throw new Error('The phone page has no script: rebuild it (npm run build).')
  return { html: Buffer.from(html), assets }
}
