import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { type ReactNode, useEffect, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { formatTime } from '../lib/format'
import type { PhoneDevice, PhoneState } from '../lib/types'
import { useApp } from '../store'
import { Section } from './Section'
import messages from './PhonePanel.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

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

function minutesLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - Math.max(now, Date.now())) / 60_000))
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
  const intl = useI18n()
  return (
    <li className="phone__ask" role="group" aria-labelledby={`ask-${p.id}`}>
      <p id={`ask-${p.id}`}>
        <strong>{intl.formatMessage(m.asks, { device: p.device })}</strong>
        <br />
        {intl.formatMessage(m.allowIf, {
          code: p.code,
          b: (chunks: ReactNode[]) => <strong className="phone__code">{chunks}</strong>,
        })}
      </p>
      <span className="row-actions">
        <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void decide(p.id, true)}>
          {intl.formatMessage(m.allow)}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => void decide(p.id, false)}>
          {intl.formatMessage(m.refuse)}
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
  const [load, open, close] = useApp(useShallow((s) => [s.loadPhone, s.openPhone, s.closePhone] as const))
  const intl = useI18n()
  useEffect(() => {
    void load()
  }, [load])
  const opened = phone?.open ? phone : null

  return (
    <Section
      className="card phone"
      title={intl.formatMessage(m.title)}
      intro={opened ? undefined : intl.formatMessage(m.intro)}
      actions={
        opened ? (
          <button type="button" className="btn btn--small" disabled={busy} onClick={() => void close()}>
            {intl.formatMessage(m.close)}
          </button>
        ) : (
          <button type="button" className="btn" disabled={busy} onClick={() => void open()}>
            {intl.formatMessage(m.title)}
          </button>
        )
      }
    >
      {opened ? <Pairing phone={opened} busy={busy} /> : null}
      {phone?.problem ? <p className="field__error">{phone.problem}</p> : null}
      {error ? <p className="field__error">{error}</p> : null}
    </Section>
  )
}

/** The open panel: phones waiting to be allowed, the code and link to pair one, the paired phones. */
function Pairing({ phone, busy }: { phone: PhoneState; busy: boolean }) {
  const [newLink, end] = useApp(useShallow((s) => [s.newPhoneLink, s.endPhone] as const))
  const now = useNow()
  const intl = useI18n()
  // A link that expired while the panel stayed open is not shown (main says nothing when it does).
  const link = phone.link && phone.link.expiresAt > Math.max(now, Date.now()) ? phone.link : null
  return (
    <>
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
            <QrCode rows={link.qr} label={intl.formatMessage(m.qr)} />
            <div className="phone__how">
              <p>{intl.formatMessage(m.scan)}</p>
              <p>
                <code className="phone__url">{link.url}</code>
              </p>
              <p className="muted">
                {intl.formatMessage(m.within, {
                  minutes: minutesLeft(link.expiresAt, now),
                  until: formatTime(link.expiresAt),
                })}
              </p>
              <button type="button" className="btn btn--small" disabled={busy} onClick={() => void newLink()}>
                {intl.formatMessage(m.newLink)}
              </button>
            </div>
          </>
        ) : (
          <div className="phone__how">
            <p>{intl.formatMessage(m.expired)}</p>
            <button type="button" className="btn btn--small" disabled={busy} onClick={() => void newLink()}>
              {intl.formatMessage(m.newLink)}
            </button>
          </div>
        )}
      </div>
      {phone.paired.length ? (
        <>
          <h3 className="h4">{intl.formatMessage(m.paired)}</h3>
          <ul className="phone__paired">
            {phone.paired.map((p) => (
              <li key={p.id}>
                <span>
                  {intl.formatMessage(m.pairedDevice, { device: p.device, code: p.code })}
                  <span className="muted">
                    {' '}
                    ·{' '}
                    {p.business
                      ? intl.formatMessage(m.sentTo, { count: p.photos, business: p.business })
                      : intl.formatMessage(m.sent, { count: p.photos })}{' '}
                    · {intl.formatMessage(m.since, { time: formatTime(p.since) })}
                  </span>
                </span>
                <button
                  type="button"
                  className="btn btn--small btn--ghost"
                  disabled={busy}
                  onClick={() => void end(p.id)}
                  aria-label={intl.formatMessage(m.endDevice, { device: p.device })}
                >
                  {intl.formatMessage(m.end)}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p className="muted small">
        {intl.formatMessage(m.reach, { address: phone.address })}
        {phone.refused ? ` ${intl.formatMessage(m.refused, { count: phone.refused })}` : ''}
      </p>
    </>
  )
}
