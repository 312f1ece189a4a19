import { ConnectForm } from '../components/ConnectForm'
import { BusyButton, FormError } from '../components/Field'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'

/** No profile yet: connect with a key, or try the demo on the embedded emulator. */
export function FirstRun() {
  const startDemo = useApp((s) => s.startDemo)
  const keychain = useApp((s) => s.appInfo?.keychain)
  const { busy, error, submit } = useSubmit()

  const demo = async () => {
    await submit(startDemo, (e) => `The demo could not start: ${e.message}`)
  }

  return (
    <main className="firstrun" id="main">
      <header className="firstrun__head">
        <h1>Welcome to Bookdrop</h1>
        <p className="screen__intro">
          Drop receipts and documents; Bookdrop sends them to your bookkeeping and keeps track of every file.
        </p>
      </header>
      <div className="firstrun__cols">
        <section className="card" aria-labelledby="connect-title">
          <h2 id="connect-title">Connect with a key</h2>
          <ConnectForm />
          {keychain && !keychain.persistent ? (
            <p className="note" role="note">
              Keys are kept in: {keychain.label}.{keychain.problem ? ` ${keychain.problem}` : ''}
            </p>
          ) : null}
        </section>
        <section className="card firstrun__demo" aria-labelledby="demo-title">
          <h2 id="demo-title">Just looking?</h2>
          <p>Try Bookdrop on a built-in practice server with sample data. Nothing leaves this computer.</p>
          <BusyButton
            className="btn btn--primary btn--huge"
            onClick={() => void demo()}
            busy={busy}
            busyLabel="Starting the demo…"
          >
            Try demo
          </BusyButton>
          <FormError message={error} />
        </section>
      </div>
    </main>
  )
}
