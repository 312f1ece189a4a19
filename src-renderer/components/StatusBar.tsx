import { useEffect, useState } from 'react'
import { defineMessages } from 'react-intl'
import { DEVELOPER_API_403_MESSAGE } from '../../contract/assumptions'
import { ENVIRONMENT_MESSAGES, PROFILE_KIND_MESSAGES, PROFILE_STATE_MESSAGES } from '../lib/common-messages'
import { formatTime } from '../lib/format'
import { useI18n } from '../lib/i18n'
import { CONNECTION_STATES } from '../lib/labels'
import type { ProfileState } from '../lib/types'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'
import { activeProfile } from '../store/session'
import { FormError, SecretField, SubmitButton } from './Field'
import { useShallow } from 'zustand/react/shallow'
import messages from './StatusBar.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

const STATE_TONE: Record<ProfileState, string> = {
  active: 'good',
  paused: 'neutral',
  rate_limited: 'warn',
  auth_required: 'bad',
  forbidden: 'bad',
  out_of_credits: 'bad',
  unreachable: 'bad',
  not_api: 'bad',
  offline: 'bad',
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
  const intl = useI18n()

  if (!profile) {
    return (
      <footer className="statusbar" aria-label={intl.formatMessage(m.status)}>
        <span>{intl.formatMessage(m.noProfile)}</span>
      </footer>
    )
  }
  const state = session?.state ?? 'active'
  const counts = session?.counts
  const waiting = counts ? counts.queued + counts.uploading + counts.waiting_retry : 0
  const paused = rl?.pausedUntil && rl.pausedUntil > now ? rl.pausedUntil : null

  return (
    <footer className="statusbar" aria-label={intl.formatMessage(m.status)}>
      <span className="statusbar__item statusbar__profile" title={profile.business?.name ?? profile.name}>
        <strong>
          <bdi>{profile.name}</bdi>
        </strong>
        <span className="muted sb-optional">
          {' '}
          · {intl.formatMessage(PROFILE_KIND_MESSAGES[profile.kind])}
          {profile.environment !== 'production' ? ` · ${intl.formatMessage(ENVIRONMENT_MESSAGES[profile.environment])}` : ''}
        </span>
      </span>
      <span className="statusbar__item" role="status" aria-live="polite">
        <span className={`dot dot--${STATE_TONE[state]}`} aria-hidden="true" />
        {intl.formatMessage(PROFILE_STATE_MESSAGES[state])}
        {session?.message && state !== 'active' ? (
          <span className="muted statusbar__msg sb-optional"> — {session.message}</span>
        ) : null}
      </span>
      {rl && (rl.limit !== null || paused) ? (
        <span className="statusbar__item" aria-live="polite">
          {rl.limit !== null ? (
            <span title={intl.formatMessage(m.rateTitle)}>
              {intl.formatMessage(m.rate, { remaining: rl.remaining ?? 0, limit: rl.limit })}
            </span>
          ) : null}
          {paused ? (
            <span className="statusbar__warn">
              {' '}
              {intl.formatMessage(m.pausedUntil, {
                time: formatTime(paused),
                seconds: Math.max(0, Math.ceil((paused - now) / 1000)),
              })}
            </span>
          ) : null}
        </span>
      ) : null}
      {counts && profile.kind !== 'partner' ? (
        <span className="statusbar__item statusbar__counts">
          <span>{intl.formatMessage(m.waiting, { count: waiting })}</span>
          <span className="sb-optional">{intl.formatMessage(m.processing, { count: counts.processing })}</span>
          <span className="sb-optional">{intl.formatMessage(m.done, { count: counts.completed })}</span>
          {attentionTotal > 0 ? (
            <button type="button" className="linklike statusbar__warn" onClick={() => setScreen('capture')}>
              {intl.formatMessage(m.attention, { count: attentionTotal })}
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
            {intl.formatMessage(m.pause)}
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
  const intl = useI18n()
  const resumeLink = (words: React.ReactNode[]) => (
    <button type="button" className="linklike" onClick={() => void resume()}>
      {words}
    </button>
  )

  if (!profile || !session) return null

  if (session.storage) {
    return (
      <section className="banner banner--bad" role="alert" aria-labelledby="storage-banner-title">
        <h2 id="storage-banner-title" className="banner__title">
          {intl.formatMessage(m.storageTitle)}
        </h2>
        <p>{session.storage}</p>
        <p className="muted">{intl.formatMessage(m.nothingLostWaiting)}</p>
      </section>
    )
  }

  if (CONNECTION_STATES.includes(session.state)) {
    const title =
      session.state === 'offline'
        ? intl.formatMessage(m.offline)
        : session.state === 'not_api'
          ? intl.formatMessage(m.notApi)
          : intl.formatMessage(m.unreachable)
    // Not a live region: the status bar's state (polite) already says it once.
    return (
      <section className="banner banner--bad" aria-labelledby="reach-banner-title">
        <h2 id="reach-banner-title" className="banner__title">
          {title}
        </h2>
        <p>{session.message ?? intl.formatMessage(m.nothingLost)}</p>
        <p className="muted">{intl.formatMessage(m.reachWait)}</p>
      </section>
    )
  }

  if (session.state === 'paused' && profile.kind !== 'partner') {
    return (
      <section className="banner banner--warn" aria-labelledby="paused-banner-title">
        <h2 id="paused-banner-title" className="banner__title">
          {intl.formatMessage(m.pausedTitle)}
        </h2>
        <p>
          {session.message ?? intl.formatMessage(m.pausedDefault)} {intl.formatMessage(m.pausedText)}
        </p>
        <button type="button" className="btn btn--primary" onClick={() => void resume()}>
          {intl.formatMessage(m.resume)}
        </button>
      </section>
    )
  }

  if (session.state === 'auth_required') {
    const submit = async (e: React.FormEvent) => {
      e.preventDefault()
      if (!secret.trim()) {
        refuse(null, { secret: intl.formatMessage(m.pasteKey) })
        return
      }
      if (!(await send(() => rotateKey(profile.id, secret.trim())))) return
      setSecret('')
      await resume()
      toast('success', intl.formatMessage(m.keyWorks))
    }
    return (
      <section className="banner banner--bad" aria-labelledby="auth-banner-title">
        <h2 id="auth-banner-title" className="banner__title">
          {intl.formatMessage(m.keyRefused, { name: profile.name })}
        </h2>
        <p>
          {session.message ?? intl.formatMessage(m.keyInvalid)} {intl.formatMessage(m.keyWait)}
        </p>
        <form className="inline-form" onSubmit={submit} noValidate>
          <SecretField label={intl.formatMessage(m.newKey)} error={fields.secret} value={secret} onChange={setSecret} />
          <SubmitButton busy={busy} busyLabel={intl.formatMessage(m.checking)}>
            {intl.formatMessage(m.saveKey)}
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
          {intl.formatMessage(m.noCredits, { name: profile.business?.name ?? profile.name })}
        </h2>
        <p>{session.message ?? intl.formatMessage(m.creditsFix)}</p>
        <p>{intl.formatMessage(m.creditsWait, { resume: resumeLink })}</p>
      </section>
    )
  }

  if (session.state === 'forbidden') {
    const serverSays =
      session.message && session.message !== DEVELOPER_API_403_MESSAGE ? session.message : null
    return (
      <section className="banner banner--warn" role="alert">
        <h2 className="banner__title">{intl.formatMessage(m.forbiddenTitle)}</h2>
        <p>{intl.formatMessage(m.forbidden)}</p>
        {serverSays ? <p className="muted">{intl.formatMessage(m.serverSaid, { message: serverSays })}</p> : null}
        <p>{intl.formatMessage(m.forbiddenResume, { resume: resumeLink })}</p>
      </section>
    )
  }
  return null
}
