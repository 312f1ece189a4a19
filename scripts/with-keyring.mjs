#!/usr/bin/env node
// Usage: node scripts/with-keyring.mjs <command> [args...]
//
// Runs <command> inside a private D-Bus session with a freshly created, unlocked gnome-keyring, so
// keytar tests hit a real OS keychain (Secret Service) without touching the developer's own keyring:
// the keyring files live in a temporary directory that is removed afterwards.
// Exit code and stdio pass through. On macOS and Windows the OS keychain is already there, so the
// command simply runs.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

const APT_PACKAGES = 'libsecret-1-dev gnome-keyring dbus'
const command = process.argv.slice(2)
if (command.length === 0) {
  console.error('usage: node scripts/with-keyring.mjs <command> [args...]')
  process.exit(2)
}

function onPath(bin) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    try {
      accessSync(join(dir, bin), constants.X_OK)
      return true
    } catch {
      // keep looking
    }
  }
  return false
}

/** Spawns and mirrors the child's exit: same code, or the same signal. */
function run(bin, args, env, cleanup = () => {}) {
  const child = spawn(bin, args, { stdio: 'inherit', env })
  const forward = (signal) => child.kill(signal)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward)
  child.on('error', (err) => {
    cleanup()
    console.error(`with-keyring: could not start ${bin}: ${err.message}`)
    process.exit(127)
  })
  child.on('exit', (code, signal) => {
    cleanup()
    if (signal) {
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(s, forward)
      process.kill(process.pid, signal)
      return
    }
    process.exit(code ?? 1)
  })
}

if (process.platform !== 'linux') {
  run(command[0], command.slice(1), process.env)
} else {
  const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((bin) => !onPath(bin))
  if (missing.length > 0) {
    if (process.env.CI === 'true') {
      console.error(
        `with-keyring: ${missing.join(' and ')} not found; keychain tests need them. ` +
          `Install the system packages: apt-get install -y ${APT_PACKAGES}`,
      )
      process.exit(1)
    }
    console.warn(
      `with-keyring: ${missing.join(' and ')} not found (apt-get install ${APT_PACKAGES}); ` +
        'running without a keyring, so keychain tests will skip.',
    )
    run(command[0], command.slice(1), process.env)
  } else {
    // The password reaches the daemon through an environment variable and stdin, never argv.
    // gnome-keyring keeps its files under $XDG_DATA_HOME/keyrings: point that at a temporary directory
    // for the daemon only, so the developer's login keyring is neither read nor changed.
    const keyringHome = mkdtempSync(join(tmpdir(), 'bookdrop-keyring-'))
    const script =
      'printf %s "$BOOKDROP_KEYRING_PASSWORD" | XDG_DATA_HOME="$BOOKDROP_KEYRING_HOME" ' +
      'gnome-keyring-daemon --unlock --components=secrets >/dev/null; ' +
      'unset BOOKDROP_KEYRING_PASSWORD BOOKDROP_KEYRING_HOME; exec "$@"'
    const env = {
      ...process.env,
      BOOKDROP_KEYRING_PASSWORD: randomBytes(24).toString('hex'),
      BOOKDROP_KEYRING_HOME: keyringHome,
    }
    run('dbus-run-session', ['--', 'sh', '-c', script, 'with-keyring', ...command], env, () =>
      rmSync(keyringHome, { recursive: true, force: true }),
    )
  }
}
