/**
 * Where the phone listener may listen: an address of this computer on a private network (RFC 1918,
 * link-local, IPv6 unique local), or loopback (tests; a phone cannot reach it). Never a public
 * address, never every interface (0.0.0.0): the listener answers on the one network the person chose.
 */
import { isIP } from 'node:net'
import { networkInterfaces } from 'node:os'

export interface LanAddress {
  /** The interface's name (wlan0, en0, Wi-Fi…). */
  name: string
  address: string
}

function ipv4Parts(a: string): number[] | null {
  if (isIP(a) !== 4) return null
  return a.split('.').map(Number)
}

export function isLoopbackAddress(a: string): boolean {
  const p = ipv4Parts(a)
  if (p) return p[0] === 127
  return a === '::1'
}

/** A private-network address: 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10. */
export function isPrivateAddress(a: string): boolean {
  const p = ipv4Parts(a)
  if (p) {
    const [x, y] = p as [number, number]
    return x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 169 && y === 254)
  }
  if (isIP(a) !== 6) return false
  const first = parseInt(a.split(':')[0] || '0', 16)
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80
}

/** This computer's private-network addresses, IPv4 first (what a phone on the same Wi-Fi reaches). */
export function lanAddresses(): LanAddress[] {
  const out: LanAddress[] = []
  for (const [name, list] of Object.entries(networkInterfaces())) {
    for (const i of list ?? []) {
      // Link-local IPv6 needs a zone id a phone's browser cannot type: left out.
      if (i.internal || i.scopeid) continue
      if (isPrivateAddress(i.address)) out.push({ name, address: i.address })
    }
  }
  return out.sort((a, b) => (isIP(a.address) === isIP(b.address) ? 0 : isIP(a.address) === 4 ? -1 : 1))
}

/**
 * The address to listen on: `wanted` ('' = automatic: the first private IPv4) when it is loopback or
 * one of this computer's private addresses; otherwise a problem for people.
 */
export function chooseListenAddress(
  wanted: string,
  available: readonly LanAddress[] = lanAddresses(),
): { address: string } | { problem: string } {
  const w = wanted.trim()
  if (w === '') {
    const first = available[0]
    if (first) return { address: first.address }
    return {
      problem:
        'This computer has no address on a private network (Wi-Fi or Ethernet at home or in the office): connect it to the same network as the phone.',
    }
  }
  if (isLoopbackAddress(w)) return { address: w }
  if (!isIP(w)) return { problem: `"${w.slice(0, 60)}" is not an IP address: choose one of this computer's addresses in Settings.` }
  if (!isPrivateAddress(w))
    return { problem: `${w} is not a private-network address: Bookdrop listens for phones only on a private network (192.168.…, 10.…, 172.16–31.…).` }
  if (!available.some((a) => a.address === w))
    return { problem: `This computer has no address ${w} now: choose another in Settings (it may have joined another network).` }
  return { address: w }
}

/** `host:port` as a Host header and URL authority write it (IPv6 in brackets). */
export function authority(address: string, port: number): string {
  return isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`
}
