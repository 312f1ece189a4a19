#!/usr/bin/env node
// `npm start`: build with electron-vite, then open the desktop app. Extra arguments go to Electron
// (`npm start -- --no-sandbox`).
//
// Electron 45 downloads its binary lazily, on first use, instead of at `npm install`. `require('electron')`
// would do that synchronously with no time limit, so this script looks for the binary itself, runs the
// package's own installer with a time limit when it is missing, and gives up with one clear line on a
// machine that cannot download it (no network, blocked GitHub, ELECTRON_SKIP_BINARY_DOWNLOAD=1), a sentence that
// points to the browser app, which works without it.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const root = join(import.meta.dirname, '..')
const DOWNLOAD_TIMEOUT_MS = (Number(process.env.BOOKDROP_ELECTRON_DOWNLOAD_TIMEOUT_S) || 300) * 1000
const PROBE_TIMEOUT_MS = 10_000

/**
 * Ends with one plain sentence: what the desktop window needs, why it is missing (`why` ends the
 * clause "a one-time download that …"), and that the browser app works now.
 */
function giveUp(why) {
  console.error(
    `Bookdrop: the desktop window needs Electron, a one-time download that ${why}; ` +
      'the browser app works now: run `npm run web -- --demo` to try it with sample data, or `npm run web` for your own.',
  )
  process.exit(1)
}

/** The installer's failure in plain words: most often this computer cannot reach the download host. */
function plainReason(detail, host) {
  if (/fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|getaddrinfo|socket hang up/i.test(detail))
    return `failed because this computer cannot reach ${host} (no internet connection?)`
  return `failed (${detail})`
}

let electronDir
try {
  electronDir = dirname(require.resolve('electron/package.json'))
} catch {
  giveUp('cannot start because the electron package is not installed (run `npm install`)')
}

/** Where require('electron') would point, but only if the file is really there (never downloads). */
function installedBinary() {
  const pathFile = join(electronDir, 'path.txt')
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : ''
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH
  const candidate = override
    ? join(override, relative || 'electron')
    : relative
      ? join(electronDir, 'dist', relative)
      : ''
  return candidate && existsSync(candidate) ? candidate : undefined
}

/** True if the download host answers at all within a few seconds. */
async function reachable(url) {
  try {
    await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
    return true
  } catch {
    return false
  }
}

/** The host the installer downloads from. */
const downloadHost = process.env.ELECTRON_MIRROR || process.env.npm_config_electron_mirror || 'https://github.com/'

/** Runs electron's own installer (uses @electron/get and its cache). Resolves to why it failed (see giveUp), or ''. */
function download() {
  const skip = process.env.ELECTRON_SKIP_BINARY_DOWNLOAD
  if (skip && skip !== '0' && skip !== 'false')
    return Promise.resolve('ELECTRON_SKIP_BINARY_DOWNLOAD turns off')
  const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'))
  console.error(`Bookdrop: downloading Electron ${version} for the desktop window (first run only)...`)

  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(electronDir, 'install.js')], {
      stdio: ['ignore', 'inherit', 'pipe'],
    })
    let stderr = ''
    let settled = false
    const finish = (reason) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (child.exitCode === null) child.kill('SIGKILL')
      resolve(reason)
    }
    const timer = setTimeout(
      () => finish(`did not finish within ${DOWNLOAD_TIMEOUT_MS / 1000} s`),
      DOWNLOAD_TIMEOUT_MS,
    )
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', (err) => finish(err.message))
    child.on('exit', (code) => {
      const firstLine = stderr.split('\n').find((line) => line.trim()) ?? ''
      finish(code === 0 ? '' : plainReason(firstLine.trim() || `the installer exited with ${code}`, new URL(downloadHost).host))
    })

    // A network that drops packets would leave the installer waiting: if the download host does not
    // answer a quick probe and the installer has not started unpacking (a cached zip), stop.
    // Behind a proxy the probe would mislead (fetch ignores proxy variables), so rely on the timeout.
    const proxied = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ELECTRON_GET_USE_PROXY'].some(
      (name) => process.env[name],
    )
    if (!proxied) {
      void reachable(downloadHost).then((ok) => {
        if (ok) return
        setTimeout(() => {
          if (!existsSync(join(electronDir, 'dist'))) finish(plainReason('ENOTFOUND', new URL(downloadHost).host))
        }, 2_000)
      })
    }
  })
}

let electron = installedBinary()
if (!electron) {
  const reason = await download()
  electron = installedBinary()
  if (!electron) giveUp(reason || 'finished without leaving the program where it belongs (run `npm install` again)')
}

const electronVite = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js')
const build = spawnSync(process.execPath, [electronVite, 'build'], { cwd: root, stdio: 'inherit' })
if (build.status !== 0) process.exit(build.status ?? 1)

const args = process.argv.slice(2)
if (process.platform === 'linux' && process.getuid?.() === 0 && !args.includes('--no-sandbox')) {
  console.error(
    'Bookdrop: Electron refuses to run as root without --no-sandbox: `npm start -- --no-sandbox`.',
  )
}
const env = { ...process.env }
delete env.ELECTRON_RENDERER_URL // always the built renderer; `npm run dev` is for the dev server
delete env.ELECTRON_RUN_AS_NODE
const app = spawn(electron, [root, ...args], { cwd: root, stdio: 'inherit', env })
const forward = (signal) => app.kill(signal)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward)
app.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
