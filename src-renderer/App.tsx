export function App() {
  const version = window.bookdrop?.version
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem', maxWidth: '40rem' }}>
      <h1>Bookdrop{version ? <small style={{ fontWeight: 'normal' }}> {version}</small> : null}</h1>
      <p>The screens (drop zone, upload queue, jobs, purchase orders, invoices) come in a later issue.</p>
    </main>
  )
}
