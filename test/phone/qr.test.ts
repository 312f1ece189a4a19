/**
 * The desktop's QR code for the pairing link (qrcode in main, drawn from its modules by the
 * renderer): a QR reader (jsQR) reads back exactly the link, token included.
 */
import jsQR from 'jsqr'
import { describe, expect, it } from 'vitest'
import { qrRows } from '../../src-main/core/phone/service'

/** The rows drawn as the panel draws them: a quiet zone of 4 modules, `scale` pixels per module. */
function render(rows: string[], scale = 4): { data: Uint8ClampedArray; size: number } {
  const modules = rows.length + 8
  const size = modules * scale
  const data = new Uint8ClampedArray(size * size * 4).fill(255)
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (row[x] !== '1') continue
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++) {
          const i = (((y + 4) * scale + dy) * size + (x + 4) * scale + dx) * 4
          data[i] = data[i + 1] = data[i + 2] = 0
        }
    }
  })
  return { data, size }
}

describe('the pairing QR code', () => {
  it.each([
    'http://192.168.1.20:51234/#t=Yrd8tp6S4W7HWWyBO2l39mGBtdcQ',
    'http://[fd00::1234]:40000/#t=AAAAAAAAAAAAAAAAAAAAAAAAAAA',
  ])('reads back as %s', (url) => {
    const rows = qrRows(url)
    expect(rows.every((r) => r.length === rows.length && /^[01]+$/.test(r))).toBe(true)
    const { data, size } = render(rows)
    expect(jsQR(data, size, size)?.data).toBe(url)
  })
})
