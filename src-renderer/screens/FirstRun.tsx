import { defineMessages } from 'react-intl'
import { ConnectForm } from '../components/ConnectForm'
import { useI18n } from '../lib/i18n'
import { BusyButton, FormError } from '../components/Field'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'
import messages from './FirstRun.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** No profile yet: connect with a key, or try the demo on the embedded emulator. */
export function FirstRun() {
  const startDemo = useApp((s) => s.startDemo)
  const keychain = useApp((s) => s.appInfo?.keychain)
  const { busy, error, submit } = useSubmit()
  const intl = useI18n()

  const demo = async () => {
    await submit(startDemo, (e) => intl.formatMessage(m.demoFailed, { message: e.message }))
  }

  return (
    <main className="firstrun" id="main">
      <header className="firstrun__head">
        <h1>{intl.formatMessage(m.welcome)}</h1>
        <p className="screen__intro">{intl.formatMessage(m.intro)}</p>
      </header>
      <div className="firstrun__cols">
        <section className="card" aria-labelledby="connect-title">
          <h2 id="connect-title">{intl.formatMessage(m.connect)}</h2>
          <ConnectForm />
          {keychain && !keychain.persistent ? (
            <p className="note" role="note">
              {keychain.backend === 'memory'
                ? intl.formatMessage(m.keysInMemory)
                : intl.formatMessage(m.keysKept, { place: keychain.label })}
              {keychain.problem ? ` ${keychain.problem}` : ''}
            </p>
          ) : null}
        </section>
        <section className="card firstrun__demo" aria-labelledby="demo-title">
          <h2 id="demo-title">{intl.formatMessage(m.looking)}</h2>
          <p>{intl.formatMessage(m.demoText)}</p>
          <BusyButton
            className="btn btn--primary btn--huge"
            onClick={() => void demo()}
            busy={busy}
            busyLabel={intl.formatMessage(m.starting)}
          >
            {intl.formatMessage(m.tryDemo)}
          </BusyButton>
          <FormError message={error} />
        </section>
      </div>
    </main>
  )
}
