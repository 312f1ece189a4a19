/** `bookdrop headless --check`: one connection report for the key and the path of this command line. */
import type { ConnectionReport } from '../core/api/transport'
import { EXIT } from './args'
import type { Connection } from './connect'

/** `--check`: the base URL, the proxy, the certificate's issuer, the round trip, and whether the API answered. */
export async function checkConnection(conn: Connection): Promise<number> {
  let client
  try {
    client = (await conn.clients.clientFor(conn.profileId, () => {})) as unknown as {
      checkConnection(): Promise<ConnectionReport>
    }
  } catch (e) {
    console.error(`bookdrop: --check: ${(e as Error).message}`)
    return EXIT.unfinished
  }
  const r = await client.checkConnection()
  const lines = [
    `bookdrop: connection check (${conn.label})`,
    `  base URL:    ${r.baseUrl}`,
    `  proxy:       ${r.proxy ?? 'none (direct)'}`,
    `  certificate: ${r.baseUrl.startsWith('https:') ? (r.issuer ? `signed by ${r.issuer}` : 'not read') : 'none (plain http on this computer)'}`,
    `  trusted:     ${r.trust}`,
    `  round trip:  ${r.roundTripMs === null ? 'no answer' : `${r.roundTripMs} ms`}`,
    `  answer:      ${r.api ? `the API's${r.keyAccepted === false ? ' (the key was refused)' : r.keyAccepted ? ' (key accepted)' : ''}` : r.status === null ? 'none' : `not the API's (HTTP ${r.status})`}`,
    `  ${r.message}`,
  ]
  console.log(lines.join('\n'))
  return r.api && r.keyAccepted !== false ? EXIT.ok : EXIT.unfinished
}
