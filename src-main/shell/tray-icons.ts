/**
 * Tray icons drawn in plain Node: the app icon (build/icon.svg's rounded square and white drop,
 * the same geometry scripts/make-icon.mjs uses for build/icons/*.png) with a status badge —
 * none when idle, green when uploading, amber when paused, red when something needs attention.
 * Electron turns the PNG bytes into a nativeImage (src-main/electron/tray.ts); nothing to package.
 */
import { crc32, deflateSync } from 'node:zlib'
import type { TrayKind } from './tray-state'

type Rgb = readonly [number, number, number]
const hex = (h: string): Rgb => [
  parseInt(h.slice(1, 3), 16),
  parseInt(h.slice(3, 5), 16),
  parseInt(h.slice(5, 7), 16),
]

const TOP = hex('#3b82f6')
const BOTTOM = hex('#1d4ed8')
const WHITE: Rgb = [255, 255, 255]

export const BADGE_COLOURS: Record<TrayKind, Rgb | null> = {
  idle: null,
  uploading: hex('#16a34a'),
  paused: hex('#d97706'),
  attention: hex('#dc2626'),
}

// Geometry in the SVG's 512-unit space (mirrors scripts/make-icon.mjs).
function insideRoundedRect(x: number, y: number, size: number, r: number): boolean {
  const dx = Math.max(r - x, 0, x - (size - r))
  const dy = Math.max(r - y, 0, y - (size - r))
  return x >= 0 && y >= 0 && x <= size && y <= size && dx * dx + dy * dy <= r * r
}
const cross = (ax: number, ay: number, bx: number, by: number, px: number, py: number): number =>
  (bx - ax) * (py - ay) - (by - ay) * (px - ax)
const DROP = { cx: 256, cy: 300, r: 120, apexY: 88 }
const PHI = Math.acos(DROP.r / (DROP.cy - DROP.apexY))
const TANGENT = [DROP.r * Math.sin(PHI), DROP.cy - DROP.r * Math.cos(PHI)] as const
function insideDrop(x: number, y: number): boolean {
  if ((x - DROP.cx) ** 2 + (y - DROP.cy) ** 2 <= DROP.r ** 2) return true
  const [ax, ay] = [DROP.cx, DROP.apexY]
  const [bx, by] = [DROP.cx + TANGENT[0], TANGENT[1]]
  const [cx, cy] = [DROP.cx - TANGENT[0], TANGENT[1]]
  const s1 = cross(ax, ay, bx, by, x, y)
  const s2 = cross(bx, by, cx, cy, x, y)
  const s3 = cross(cx, cy, ax, ay, x, y)
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)
}

// Badge: a filled circle in the bottom-right corner with a white ring around it.
const BADGE = { cx: 384, cy: 384, r: 120, ring: 36 }

function colourAt(x: number, y: number, badge: Rgb | null): Rgb | null {
  if (badge) {
    const d2 = (x - BADGE.cx) ** 2 + (y - BADGE.cy) ** 2
    if (d2 <= BADGE.r ** 2) return badge
    if (d2 <= (BADGE.r + BADGE.ring) ** 2) return WHITE
  }
  if (!insideRoundedRect(x, y, 512, 112)) return null
  if (insideDrop(x, y)) return WHITE
  const t = y / 512
  return [
    TOP[0] + (BOTTOM[0] - TOP[0]) * t,
    TOP[1] + (BOTTOM[1] - TOP[1]) * t,
    TOP[2] + (BOTTOM[2] - TOP[2]) * t,
  ]
}

/** RGBA pixels of the icon for `kind` at `size`×`size`, 4×4 supersampled. */
export function renderTrayIcon(kind: TrayKind, size: number, samples = 4): Buffer {
  const badge = BADGE_COLOURS[kind]
  return supersample(size, samples, (x, y) => colourAt(x, y, badge))
}

/**
 * RGBA pixels at `size`×`size` of a picture drawn on a 512-unit square by `colour` (null: clear),
 * each pixel the average of `samples`×`samples` points (the app icon's script uses it too).
 */
export function supersample(
  size: number,
  samples: number,
  colour: (x: number, y: number) => Rgb | null,
): Buffer {
  const scale = 512 / size
  const out = Buffer.alloc(size * size * 4)
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const c = colour((px + (sx + 0.5) / samples) * scale, (py + (sy + 0.5) / samples) * scale)
          if (!c) continue
          r += c[0]
          g += c[1]
          b += c[2]
          a++
        }
      }
      const o = (py * size + px) * 4
      if (a > 0) {
        out[o] = Math.round(r / a)
        out[o + 1] = Math.round(g / a)
        out[o + 2] = Math.round(b / a)
      }
      out[o + 3] = Math.round((255 * a) / (samples * samples))
    }
  }
  return out
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'ascii')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/** Encodes RGBA pixels as an 8-bit RGBA PNG. */
export function encodePng(rgba: Buffer, width: number, height: number): Buffer {
  const stride = width * 4
  const rows = Buffer.alloc(height * (stride + 1))
  for (let y = 0; y < height; y++) rgba.copy(rows, y * (stride + 1) + 1, y * stride, (y + 1) * stride) // filter 0
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 6, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const cache = new Map<string, Buffer>()

/** The PNG for `kind` at `size` pixels (cached: the tray asks again on every state change). */
export function trayIconPng(kind: TrayKind, size: number): Buffer {
  const key = `${kind}@${size}`
  let png = cache.get(key)
  if (!png) cache.set(key, (png = encodePng(renderTrayIcon(kind, size), size, size)))
  return png
}

/** Logical tray icon size per platform (macOS menu bar 16pt, Windows 16px, Linux panels 22–24px). */
export function trayIconSize(platform: NodeJS.Platform): number {
  return platform === 'linux' ? 24 : 16
}
