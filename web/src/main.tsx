import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App.tsx'
import { match } from './app/router.ts'
import { CURRENT } from './features/auth/api.ts'
import { prefetchSessionPage } from './features/sessions/api.ts'
import { ApiError, setCachedError } from './lib/api.ts'
import { clientConfig } from './lib/config.ts'
import { getLocale } from './lib/i18n.ts'
import './styles.css'

document.documentElement.lang = getLocale()
// Without a session cookie the page is signed out: the sign-in page at once, no request that must
// answer 401 (a console error for every first visit). With one, the session page starts loading.
const opened = match('/sessions/:id', location.pathname)
if (!clientConfig().sessionCookie) setCachedError(CURRENT, new ApiError(401, { code: 'unauthenticated' }))
else if (opened) prefetchSessionPage(opened.id!)
createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>)
