/**
 * Programs some tests need (openssl, setpriv): whether one is installed, so a test can skip
 * without it.
 */
import { execFileSync } from 'node:child_process'

/** Whether `command args` runs and exits 0 (its output is not shown). */
export function commandWorks(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
