/**
 * A name for the phone that asks to pair, from its browser's User-Agent, for the desktop's
 * "A phone wants to send receipts: <device>" (not a proof of anything: the pairing code is).
 */

function browserOf(ua: string): string | null {
  if (/SamsungBrowser\//.test(ua)) return 'Samsung Internet'
  if (/EdgA?\/|EdgiOS\//.test(ua)) return 'Edge'
  if (/FxiOS\/|Firefox\//.test(ua)) return 'Firefox'
  if (/CriOS\/|Chrome\//.test(ua)) return 'Chrome'
  if (/Safari\//.test(ua) && /Version\//.test(ua)) return 'Safari'
  return null
}

function modelOf(ua: string): string | null {
  // "Linux; Android 14; Pixel 8 Build/…" or "Android 14; SM-S911B)".
  const m = /Android [\d.]+;\s*(?:[a-z]{2}[-_][a-z]{2};\s*)?([^;)]+?)(?:\s+Build\/[^;)]*)?[;)]/i.exec(ua)
  const model = m?.[1]?.trim()
  return model && model !== 'K' && model.length <= 30 ? model : null
}

export function deviceName(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').slice(0, 512)
  let kind = 'A device'
  if (/iPhone/.test(ua)) kind = 'iPhone'
  else if (/iPad/.test(ua)) kind = 'iPad'
  else if (/Android/.test(ua)) {
    const model = modelOf(ua)
    kind = /Mobile/.test(ua) ? 'Android phone' : 'Android tablet'
    if (model) kind = `${kind} (${model})`
  } else if (/Macintosh/.test(ua)) kind = 'Mac'
  else if (/Windows/.test(ua)) kind = 'Windows computer'
  else if (/Linux/.test(ua)) kind = 'Linux computer'
  const browser = browserOf(ua)
  // Only printable characters reach the desktop's screen.
  return `${kind}${browser ? ` · ${browser}` : ''}`.replace(/[^\p{L}\p{N} ()·._-]/gu, '').slice(0, 60)
}
