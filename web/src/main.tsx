import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App.tsx'
import { match } from './app/router.ts'
import { prefetchSessionPage } from './features/sessions/api.ts'
import { getLocale } from './lib/i18n.ts'
import './styles.css'

document.documentElement.lang = getLocale()
const opened = match('/sessions/:id', location.pathname)
if (opened) prefetchSessionPage(opened.id!)
createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>)
