// First, before React is evaluated: the first screen's code and the first calls are asked for.
import './start-early'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { I18nProvider } from './lib/i18n'
import { startApp } from './store/start'
import './styles/app.css'

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')
void startApp()
createRoot(container).render(
  <StrictMode>
    <I18nProvider>
      <App />
    </I18nProvider>
  </StrictMode>,
)
