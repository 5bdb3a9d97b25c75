import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App.tsx'
import { getLocale } from './lib/i18n.ts'
import './styles.css'

document.documentElement.lang = getLocale()
createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>)
