// First, before React is evaluated: the first calls go out (see lib/early.ts).
import './start-early'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { loadScreen } from './screens'
import { useApp } from './store'
import { startApp } from './store/start'
import './styles/app.css'

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')
// The first screen's chunk comes in while the app boots, not after.
void loadScreen(useApp.getState().screen).catch(() => undefined)
void startApp()
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
