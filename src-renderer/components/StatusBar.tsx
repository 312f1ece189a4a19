import { useEffect, useState } from 'react'
import { CREDITS_FIX, DEVELOPER_API_403_MESSAGE } from '../../contract/assumptions'
import { formatNumber, formatTime, plural } from '../lib/format'
import { PROFILE_KIND_LABELS, PROFILE_STATE_LABELS } from '../lib/labels'
import type { ProfileState } from '../lib/types'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'
import { activeProfile } from '../store/session'
import { FormError, SecretField, SubmitButton } from './Field'
import { useShallow } from 'zustand/react/shallow'

const STATE_TONE: Record<ProfileState, string> = {
  active: 'good',
  paused: 'neutral',
  rate_limited: 'warn',
  auth_required: 'bad',
  forbidden: 'bad',
  out_of_credits: 'bad',
  unreachable: 'warn',
  not_api: 'warn',
  offline: 'warn',
}

/** Re-renders once a second while `until` is in the future; returns now. */
function useNowUntil(until: number | null | undefined): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!until || until <= Date.now()) return
    const t = setInterval(() => {
      setNow(Date.now())
      if (Date.now() >= until) clearInterval(t)
    }, 1000)
    return () => clearInterval(t)
  }, [until])
  return now
}

/** Always visible: who we act for, whether the connection works, rate limits and the queue. */
export function StatusBar() {
  const profile = useApp(activeProfile)
  const [session, attentionTotal] = useApp(useShallow((s) => [s.session, s.attentionTotal] as const))
  const [pause, setScreen] = useApp(useShallow((s) => [s.pauseUploads, s.setScreen] as const))
  const rl = session?.rateLimit ?? null
  const now = useNowUntil(rl?.pausedUntil)

  if (!profile) {
    return (
      <footer className="statusbar" aria-label="Status">
        <span>No profile is active.</span>
      </footer>
    )
  }
  const state = session?.state ?? 'active'
  const counts = session?.counts
  const waiting = counts ? counts.queued + counts.uploading + counts.waiting_retry : 0
  const paused = rl?.pausedUntil && rl.pausedUntil > now ? rl.pausedUntil : null

  return (
    <footer className="statusbar" aria-label="Status">
      <span className="statusbar__item statusbar__profile" title={profile.business?.name ?? profile.name}>
        <strong>{profile.name}</strong>
        <span className="muted sb-optional">
          {' '}
          · {PROFILE_KIND_LABELS[profile.kind]}
          {profile.environment !== 'production' ? ` · ${profile.environment}` : ''}
        </span>
      </span>
      <span className="statusbar__item" role="status" aria-live="polite">
        <span className={`dot dot--${STATE_TONE[state]}`} aria-hidden="true" />
        {PROFILE_STATE_LABELS[state]}
        {session?.message && state !== 'active' ? (
          <span className="muted statusbar__msg sb-optional"> — {session.message}</span>
        ) : null}
      </span>
      {rl && (rl.limit !== null || paused) ? (
        <span className="statusbar__item" aria-live="polite">
          {rl.limit !== null ? (
            <span title="Requests left in the server's rate-limit window">
              API {formatNumber(rl.remaining ?? 0)}/{formatNumber(rl.limit)} left
            </span>
          ) : null}
          {paused ? (
            <span className="statusbar__warn">
              {' '}
              · paused until {formatTime(paused)} ({Math.max(0, Math.ceil((paused - now) / 1000))} s)
            </span>
          ) : null}
        </span>
      ) : null}
      {counts && profile.kind !== 'partner' ? (
        <span className="statusbar__item statusbar__counts">
          <span>{plural(waiting, 'file')} waiting</span>
          <span className="sb-optional">{formatNumber(counts.processing)} processing</span>
          <span className="sb-optional">{formatNumber(counts.completed)} done</span>
          {attentionTotal > 0 ? (
            <button type="button" className="linklike statusbar__warn" onClick={() => setScreen('capture')}>
              {formatNumber(attentionTotal)} need attention
            </button>
          ) : null}
        </span>
      ) : null}
      {profile.kind !== 'partner' && state !== 'paused' ? (
        // The one pause control, on every screen; while paused, the banner at the top says so and
        // holds the Resume button.
        <span className="statusbar__item statusbar__end">
          <button
            type="button"
            className="btn btn--small"
            onClick={() => void pause()}
            disabled={state === 'auth_required' || state === 'out_of_credits'}
          >
            Pause uploads
          </button>
        </span>
      ) : null}
    </footer>
  )
}

/**
 * In place at the top of every screen: a refused key (401) asks for a new one right here; a
 * business without Developer API access (403), or out of AI credits, is told what to do.
 */
export function SessionBanner() {
  const profile = useApp(activeProfile)
  const [session, rotateKey] = useApp(useShallow((s) => [s.session, s.rotateKey] as const))
  const [resume, toast] = useApp(useShallow((s) => [s.resumeUploads, s.toast] as const))
  const [secret, setSecret] = useState('')
  const { busy, error, fields, submit: send, refuse } = useSubmit()

  if (!profile || !session) return null

  if (session.storage) {
    return (
      <section className="banner banner--bad" role="alert" aria-labelledby="storage-banner-title">
        <h2 id="storage-banner-title" className="banner__title">
          Uploads are paused: Bookdrop cannot write to its data folder
        </h2>
        <p>{session.storage}</p>
        <p className="muted">Nothing is lost: files waiting to be sent stay where they are.</p>
      </section>
    )
  }

  if (session.state === 'paused' && profile.kind !== 'partner') {
    return (
      <section className="banner banner--warn" aria-labelledby="paused-banner-title">
        <h2 id="paused-banner-title" className="banner__title">
          Uploads are paused
        </h2>
        <p>
          {session.message ?? 'Paused.'} New files are still queued and wait here; nothing is sent until you
          resume.
        </p>
        <button type="button" className="btn btn--primary" onClick={() => void resume()}>
          Resume uploads
        </button>
      </section>
    )
  }

  if (session.state === 'auth_required') {
    const submit = async (e: React.FormEvent) => {
      e.preventDefault()
      if (!secret.trim()) {
        refuse(null, { secret: 'Paste the new secret key.' })
        return
      }
      if (!(await send(() => rotateKey(profile.id, secret.trim())))) return
      setSecret('')
      await resume()
      toast('success', 'The new key works: uploads continue.')
    }
    return (
      <section className="banner banner--bad" aria-labelledby="auth-banner-title">
        <h2 id="auth-banner-title" className="banner__title">
          The server refused the key of “{profile.name}”
        </h2>
        <p>
          {session.message ?? 'The key is invalid or was rotated.'} Uploads for this profile wait until a
          working key is entered; nothing is lost.
        </p>
        <form className="inline-form" onSubmit={submit} noValidate>
          <SecretField label="Enter a new key" error={fields.secret} value={secret} onChange={setSecret} />
          <SubmitButton busy={busy} busyLabel="Checking…">
            Save key and resume
          </SubmitButton>
        </form>
        <FormError message={error} />
      </section>
    )
  }

  if (session.state === 'out_of_credits') {
    return (
      <section className="banner banner--warn" role="alert" aria-labelledby="credits-banner-title">
        <h2 id="credits-banner-title" className="banner__title">
          “{profile.business?.name ?? profile.name}” has run out of AI credits
        </h2>
        <p>{session.message ?? CREDITS_FIX}</p>
        <p>
          Files wait where they are, in the queue; jobs already sent are still followed. Once credits are
          granted or bought,{' '}
          <button type="button" className="linklike" onClick={() => void resume()}>
            resume uploads
          </button>
          .
        </p>
      </section>
    )
  }

  if (session.state === 'forbidden') {
    const serverSays =
      session.message && session.message !== DEVELOPER_API_403_MESSAGE ? session.message : null
    return (
      <section className="banner banner--warn" role="alert">
        <h2 className="banner__title">This business cannot use the Developer API</h2>
        <p>{DEVELOPER_API_403_MESSAGE}</p>
        {serverSays ? <p className="muted">The server said: {serverSays}</p> : null}
        <p>
          Once the subscription is active,{' '}
          <button type="button" className="linklike" onClick={() => void resume()}>
            resume uploads
          </button>
          .
        </p>
      </section>
    )
  }
  return null
}
