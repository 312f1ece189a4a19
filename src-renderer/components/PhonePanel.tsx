import { useEffect, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { formatNumber, formatTime } from '../lib/format'
import type { PhoneDevice } from '../lib/types'
import { useApp } from '../store'

/** A QR code drawn from its modules (main makes them with `qrcode`), with a quiet zone of 4. */
function QrCode({ rows, label }: { rows: string[]; label: string }) {
  const size = rows.length + 8
  let d = ''
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (row[x] === '1') d += `M${x + 4} ${y + 4}h1v1h-1z`
  })
  return (
    <svg className="phone__qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  )
}

function minutesLeft(until: number, now: number): string {
  const m = Math.max(0, Math.ceil((until - Math.max(now, Date.now())) / 60_000))
  return m === 1 ? '1 minute' : `${m} minutes`
}

/** Re-renders every 15 s (the link's remaining time). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 15_000)
    return () => clearInterval(t)
  }, [])
  return now
}

function Waiting({ p }: { p: PhoneDevice }) {
  const decide = useApp((s) => s.decidePhone)
  const busy = useApp((s) => s.phoneBusy)
  return (
    <li className="phone__ask" role="group" aria-labelledby={`ask-${p.id}`}>
      <p id={`ask-${p.id}`}>
        <strong>A phone wants to send receipts: {p.device}</strong>
        <br />
        Allow it only if the phone shows the code <strong className="phone__code">{p.code}</strong>.
      </p>
      <span className="row-actions">
        <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void decide(p.id, true)}>
          Allow
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => void decide(p.id, false)}>
          Refuse
        </button>
      </span>
    </li>
  )
}

/**
 * "Add from phone" on the Capture screen: a phone on the same Wi-Fi scans the code (or opens the
 * link), the person allows it here, and its photos arrive in the queue like dropped files.
 */
export function PhonePanel() {
  const [phone, busy, error] = useApp(useShallow((s) => [s.phone, s.phoneBusy, s.phoneError] as const))
  const [load, open, newLink, end, close] = useApp(
    useShallow((s) => [s.loadPhone, s.openPhone, s.newPhoneLink, s.endPhone, s.closePhone] as const),
  )
  const now = useNow()
  useEffect(() => {
    void load()
  }, [load])
  // A link that expired while the panel stayed open is not shown (main says nothing when it does).
  const link = phone?.link && phone.link.expiresAt > Math.max(now, Date.now()) ? phone.link : null

  if (!phone?.open) {
    return (
      <section className="card phone" aria-labelledby="phone-title">
        <div className="phone__intro">
          <div>
            <h2 id="phone-title" className="h3">
              Add from phone
            </h2>
            <p className="muted">
              Photograph paper receipts with a phone on the same Wi-Fi: no app to install. Photos are made smaller and
              their location removed before they are sent.
            </p>
          </div>
          <button type="button" className="btn" disabled={busy} onClick={() => void open()}>
            Add from phone
          </button>
        </div>
        {phone?.problem ? <p className="field__error">{phone.problem}</p> : null}
        {error ? <p className="field__error">{error}</p> : null}
      </section>
    )
  }

  return (
    <section className="card phone" aria-labelledby="phone-title">
      <div className="section__head">
        <h2 id="phone-title" className="h3">
          Add from phone
        </h2>
        <button type="button" className="btn btn--small" disabled={busy} onClick={() => void close()}>
          Close
        </button>
      </div>
      {phone.pending.length ? (
        <ul className="phone__asks" aria-live="assertive">
          {phone.pending.map((p) => (
            <Waiting key={p.id} p={p} />
          ))}
        </ul>
      ) : null}
      <div className="phone__pair">
        {link ? (
          <>
            <QrCode rows={link.qr} label="QR code of the link for the phone" />
            <div className="phone__how">
              <p>Scan the code with the phone’s camera, or open this link in its browser:</p>
              <p>
                <code className="phone__url">{link.url}</code>
              </p>
              <p className="muted">
                For one phone, within {minutesLeft(link.expiresAt, now)} (until {formatTime(link.expiresAt)}). Then
                allow it here.
              </p>
              <button type="button" className="btn btn--small" disabled={busy} onClick={() => void newLink()}>
                New link
              </button>
            </div>
          </>
        ) : (
          <div className="phone__how">
            <p>The link was used or has expired. Make a new one for the next phone.</p>
            <button type="button" className="btn btn--small" disabled={busy} onClick={() => void newLink()}>
              New link
            </button>
          </div>
        )}
      </div>
      {phone.paired.length ? (
        <>
          <h3 className="h4">Paired phones</h3>
          <ul className="phone__paired">
            {phone.paired.map((p) => (
              <li key={p.id}>
                <span>
                  {p.device} · code {p.code}
                  <span className="muted">
                    {' '}
                    · {formatNumber(p.photos)} sent{p.business ? ` to ${p.business}` : ''} · since {formatTime(p.since)}
                  </span>
                </span>
                <button
                  type="button"
                  className="btn btn--small btn--ghost"
                  disabled={busy}
                  onClick={() => void end(p.id)}
                  aria-label={`End: ${p.device}`}
                >
                  End
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p className="muted small">
        Phones reach this computer at {phone.address} (plain HTTP on your network: pair only on a network you trust). A
        pairing ends after 30 idle minutes or when you close this panel.
        {phone.refused ? ` Requests refused: ${formatNumber(phone.refused)}.` : ''}
      </p>
      {phone.problem ? <p className="field__error">{phone.problem}</p> : null}
      {error ? <p className="field__error">{error}</p> : null}
    </section>
  )
}
