/**
 * The main window's bounds and maximized flag, remembered in <dataDir>/window-state.json and
 * fitted back onto the displays that exist now (a monitor may have been unplugged). The fitting is
 * a pure function of the saved state and the displays' work areas, so it is tested without Electron.
 */
import { randomBytes } from 'node:crypto'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export interface WindowState {
  /** Absent on first run: the window is centred on the primary display. */
  x?: number
  y?: number
  width: number
  height: number
  maximized: boolean
}

export interface PlacedWindowState extends Rect {
  maximized: boolean
}

export interface WindowLimits {
  width: number
  height: number
  minWidth: number
  minHeight: number
}

export const DEFAULT_WINDOW: WindowLimits = { width: 1100, height: 760, minWidth: 720, minHeight: 480 }

/** How much of the window must be on a display to leave it where it was (else it is re-centred). */
const MIN_VISIBLE = { width: 160, height: 80 }

export const WINDOW_STATE_FILE = 'window-state.json'

const finite = z.number().finite()
const stateSchema = z.object({
  x: finite.optional(),
  y: finite.optional(),
  width: finite.positive(),
  height: finite.positive(),
  maximized: z.boolean().default(false),
})

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return { width: Math.max(0, width), height: Math.max(0, height) }
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), Math.max(lo, hi))

function centred(area: Rect, width: number, height: number): Rect {
  return {
    x: Math.round(area.x + (area.width - width) / 2),
    y: Math.round(area.y + (area.height - height) / 2),
    width,
    height,
  }
}

/**
 * Where to open the window: the saved bounds if enough of them is on a display (shrunk to fit and
 * moved fully onto that display), else the saved (or default) size centred on the primary display.
 * `workAreas[0]` is the primary display. With no displays at all, the saved state is returned as is.
 */
export function fitWindowState(
  saved: WindowState | null,
  workAreas: readonly Rect[],
  limits: WindowLimits = DEFAULT_WINDOW,
): PlacedWindowState {
  const wanted = {
    width: Math.round(saved?.width ?? limits.width),
    height: Math.round(saved?.height ?? limits.height),
  }
  const maximized = saved?.maximized ?? false
  const primary = workAreas[0]
  if (!primary) return { x: Math.round(saved?.x ?? 0), y: Math.round(saved?.y ?? 0), ...wanted, maximized }

  const fitSize = (area: Rect): { width: number; height: number } => ({
    width: clamp(wanted.width, Math.min(limits.minWidth, area.width), area.width),
    height: clamp(wanted.height, Math.min(limits.minHeight, area.height), area.height),
  })

  if (saved?.x !== undefined && saved.y !== undefined) {
    const rect: Rect = { x: Math.round(saved.x), y: Math.round(saved.y), ...wanted }
    let best: Rect | null = null
    let bestArea = 0
    for (const area of workAreas) {
      const o = overlap(rect, area)
      const visible = o.width * o.height
      const enough =
        o.width >= Math.min(MIN_VISIBLE.width, rect.width) &&
        o.height >= Math.min(MIN_VISIBLE.height, rect.height)
      if (enough && visible > bestArea) {
        best = area
        bestArea = visible
      }
    }
    if (best) {
      const size = fitSize(best)
      return {
        x: clamp(rect.x, best.x, best.x + best.width - size.width),
        y: clamp(rect.y, best.y, best.y + best.height - size.height),
        ...size,
        maximized,
      }
    }
  }
  const size = fitSize(primary)
  return { ...centred(primary, size.width, size.height), maximized }
}

/** The saved state, or null when there is none or it cannot be read (never throws). */
export async function loadWindowState(dataDir: string): Promise<WindowState | null> {
  try {
    const raw: unknown = JSON.parse(await readFile(join(dataDir, WINDOW_STATE_FILE), 'utf8'))
    const parsed = stateSchema.safeParse(raw)
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Writes the state atomically (temporary file, then rename), so a crash never leaves half a file. */
export async function saveWindowState(dataDir: string, state: WindowState): Promise<void> {
  const file = join(dataDir, WINDOW_STATE_FILE)
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`
  const clean: WindowState = {
    ...(state.x !== undefined ? { x: Math.round(state.x) } : {}),
    ...(state.y !== undefined ? { y: Math.round(state.y) } : {}),
    width: Math.round(state.width),
    height: Math.round(state.height),
    maximized: state.maximized,
  }
  await writeFile(tmp, `${JSON.stringify(clean)}\n`, { encoding: 'utf8', mode: 0o600 })
  await rename(tmp, file)
}
