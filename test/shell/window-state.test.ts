import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  DEFAULT_WINDOW,
  WINDOW_STATE_FILE,
  fitWindowState,
  loadWindowState,
  saveWindowState,
  type Rect,
} from '../../src-main/shell/window-state'

const primary: Rect = { x: 0, y: 25, width: 1920, height: 1055 } // menu bar at the top
const right: Rect = { x: 1920, y: 0, width: 1280, height: 1024 }
const left: Rect = { x: -1440, y: 100, width: 1440, height: 900 }

describe('fitWindowState', () => {
  it('centres the default size on the primary display on first run', () => {
    expect(fitWindowState(null, [primary, right])).toEqual({
      x: (1920 - 1100) / 2,
      y: 25 + Math.round((1055 - 760) / 2),
      width: 1100,
      height: 760,
      maximized: false,
    })
  })

  it('keeps a window that is fully on a display where it was', () => {
    const saved = { x: 2000, y: 100, width: 900, height: 700, maximized: true }
    expect(fitWindowState(saved, [primary, right])).toEqual(saved)
  })

  it('keeps a window on a display left of the primary (negative coordinates)', () => {
    const saved = { x: -1300, y: 200, width: 1000, height: 700, maximized: false }
    expect(fitWindowState(saved, [primary, left])).toEqual(saved)
  })

  it('moves a window that hangs off the edge fully onto its display', () => {
    expect(fitWindowState({ x: 1500, y: 900, width: 1000, height: 700, maximized: false }, [primary])).toEqual({
      x: 1920 - 1000,
      y: 25 + 1055 - 700,
      width: 1000,
      height: 700,
      maximized: false,
    })
  })

  it('picks the display showing most of a window that spans two', () => {
    const placed = fitWindowState({ x: 1700, y: 100, width: 1000, height: 700, maximized: false }, [primary, right])
    expect(placed.x).toBe(1920) // 780 px on the right display, 220 on the primary
  })

  it('re-centres a window whose display was unplugged', () => {
    const placed = fitWindowState({ x: 3500, y: 200, width: 1000, height: 700, maximized: true }, [primary])
    expect(placed).toEqual({ x: 460, y: 25 + Math.round((1055 - 700) / 2), width: 1000, height: 700, maximized: true })
  })

  it('re-centres a window of which only a sliver is visible', () => {
    const placed = fitWindowState({ x: 1900, y: 100, width: 1000, height: 700, maximized: false }, [primary])
    expect(placed.x).toBe(460)
  })

  it('shrinks a window larger than the display, but not below the display itself', () => {
    const small: Rect = { x: 0, y: 0, width: 1024, height: 600 }
    expect(fitWindowState({ x: 0, y: 0, width: 3000, height: 2000, maximized: false }, [small])).toEqual({
      x: 0,
      y: 0,
      width: 1024,
      height: 600,
      maximized: false,
    })
    const tiny: Rect = { x: 0, y: 0, width: 640, height: 400 }
    const placed = fitWindowState({ width: 1100, height: 760, maximized: false }, [tiny])
    expect(placed).toMatchObject({ width: 640, height: 400, x: 0, y: 0 })
  })

  it('grows a saved size below the minimum back to the minimum', () => {
    const placed = fitWindowState({ x: 10, y: 40, width: 100, height: 50, maximized: false }, [primary])
    expect(placed).toMatchObject({ width: DEFAULT_WINDOW.minWidth, height: DEFAULT_WINDOW.minHeight })
  })

  it('rounds fractional bounds and survives having no displays', () => {
    expect(fitWindowState({ x: 10.4, y: 40.6, width: 800.2, height: 600.7, maximized: false }, [])).toEqual({
      x: 10,
      y: 41,
      width: 800,
      height: 601,
      maximized: false,
    })
  })
})

describe('window state file', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bookdrop-window-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('round-trips through <dataDir>/window-state.json', async () => {
    expect(await loadWindowState(dir)).toBeNull()
    await saveWindowState(dir, { x: 12.2, y: -30, width: 900, height: 650, maximized: true })
    expect(await loadWindowState(dir)).toEqual({ x: 12, y: -30, width: 900, height: 650, maximized: true })
    expect(JSON.parse(await readFile(join(dir, WINDOW_STATE_FILE), 'utf8'))).toMatchObject({ width: 900 })
  })

  it('treats a corrupt or wrong-shaped file as no state', async () => {
    await writeFile(join(dir, WINDOW_STATE_FILE), '{"width": "wide"')
    expect(await loadWindowState(dir)).toBeNull()
    await writeFile(join(dir, WINDOW_STATE_FILE), JSON.stringify({ width: -5, height: 10 }))
    expect(await loadWindowState(dir)).toBeNull()
    await writeFile(join(dir, WINDOW_STATE_FILE), JSON.stringify({ width: 800, height: 600 }))
    expect(await loadWindowState(dir)).toEqual({ width: 800, height: 600, maximized: false })
  })
})
