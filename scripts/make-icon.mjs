#!/usr/bin/env node
// Draws build/icon.svg's shapes into PNGs with no dependencies (4x4 supersampling; the PNG encoder is
// the tray icons' own, src-main/shell/tray-icons.ts).
// Output: build/icon.png (512, mac/win, electron-builder converts), build/icons/<n>x<n>.png (linux)
// and src-renderer/public/favicon.png (64, the page's icon).
// Run after changing the icon: npx tsx scripts/make-icon.mjs
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodePng, supersample } from '../src-main/shell/tray-icons.ts'

const buildDir = join(import.meta.dirname, '..', 'build')
const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16))
const TOP = hex('#3b82f6')
const BOTTOM = hex('#1d4ed8')
const WHITE = [255, 255, 255]

// Geometry in the SVG's 512-unit space.
const insideRoundedRect = (x, y, size, r) => {
  const dx = Math.max(r - x, 0, x - (size - r))
  const dy = Math.max(r - y, 0, y - (size - r))
  return x >= 0 && y >= 0 && x <= size && y <= size && dx * dx + dy * dy <= r * r
}
const cross = (ax, ay, bx, by, px, py) => (bx - ax) * (py - ay) - (by - ay) * (px - ax)
const drop = { cx: 256, cy: 300, r: 120, apexY: 88 }
const phi = Math.acos(drop.r / (drop.cy - drop.apexY))
const tangent = [drop.r * Math.sin(phi), drop.cy - drop.r * Math.cos(phi)] // half-width, y
const insideDrop = (x, y) => {
  if ((x - drop.cx) ** 2 + (y - drop.cy) ** 2 <= drop.r ** 2) return true
  const a = [drop.cx, drop.apexY]
  const b = [drop.cx + tangent[0], tangent[1]]
  const c = [drop.cx - tangent[0], tangent[1]]
  const s1 = cross(...a, ...b, x, y)
  const s2 = cross(...b, ...c, x, y)
  const s3 = cross(...c, ...a, x, y)
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)
}
const insideLine = (x, y, x1, x2, ly, half) => {
  const dx = x < x1 ? x1 - x : x > x2 ? x - x2 : 0
  return dx * dx + (y - ly) ** 2 <= half * half
}

function colourAt(x, y) {
  if (!insideRoundedRect(x, y, 512, 112)) return null
  if (insideLine(x, y, 206, 306, 300, 10) || insideLine(x, y, 206, 276, 350, 10)) return BOTTOM
  if (insideDrop(x, y)) return WHITE
  const t = y / 512
  return TOP.map((v, i) => v + (BOTTOM[i] - v) * t)
}

function render(size) {
  return encodePng(supersample(size, 4, colourAt), size, size)
}

mkdirSync(join(buildDir, 'icons'), { recursive: true })
const big = render(512)
writeFileSync(join(buildDir, 'icon.png'), big)
writeFileSync(join(buildDir, 'icons', '512x512.png'), big)
for (const size of [256, 128, 64, 32, 16])
  writeFileSync(join(buildDir, 'icons', `${size}x${size}.png`), render(size))
// The page's icon (the web host's /favicon.ico, and <link rel="icon"> in index.html).
const publicDir = join(buildDir, '..', 'src-renderer', 'public')
mkdirSync(publicDir, { recursive: true })
writeFileSync(join(publicDir, 'favicon.png'), render(64))
console.log('wrote build/icon.png, build/icons/*.png and src-renderer/public/favicon.png')
