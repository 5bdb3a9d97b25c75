// The app shell: who is signed in (GET /v1/account/current), the navigation with the live unread
// count, and the page for the current path. Public pages (share, invite) render without a session.
import { lazy, Suspense, useEffect } from 'react'
import { clearCache, invalidate, peek, signedOut, useOnline } from '../lib/api.ts'
import { LOCALES, setLocale, useI18n, type Locale } from '../lib/i18n.ts'
import { ErrorLine, Link, Loading, PageTitle } from '../lib/ui.tsx'
import { SignIn } from '../features/auth/SignIn.tsx'
import { Welcome } from '../features/auth/Welcome.tsx'
import { CURRENT, signOut, useCurrentAccount } from '../features/auth/api.ts'
import { BoardPage } from '../features/board/BoardPage.tsx'
import { RecordPage } from '../features/capture/RecordPage.tsx'
import { startUploader } from '../features/capture/chunk-queue.ts'
import { InvitePage } from '../features/invitations/InvitePage.tsx'
import { MembersPage } from '../features/invitations/MembersPage.tsx'
import { NotificationsPage } from '../features/notifications/NotificationsPage.tsx'
import { useLiveNotifications, useNotifications } from '../features/notifications/store.ts'
import { ProjectPage, ProjectsPage } from '../features/projects/ProjectsPage.tsx'
import { SearchPage } from '../features/search/SearchPage.tsx'
import { SessionPage } from '../features/sessions/SessionPage.tsx'
import { SessionsPage } from '../features/sessions/SessionsPage.tsx'
import { SharePage } from '../features/shares/SharePage.tsx'
import { useAvailableExtensions } from './extensions.ts'
import { match, navigate, useLocation } from './router.ts'

// Pages most people rarely open load on demand, outside the first-load bundle.
const BillingPage = lazy(() => import('../features/billing/BillingPage.tsx').then((module) => ({ default: module.BillingPage })))
const RunnersPage = lazy(() => import('../features/runners/RunnersPage.tsx').then((module) => ({ default: module.RunnersPage })))
const IntegrationsPage = lazy(() => import('../features/integrations/IntegrationsPage.tsx').then((module) => ({ default: module.IntegrationsPage })))
// Memory and voice load on first use (their pages, the answer view, the built-in voice engine).
const MemoryPage = lazy(() => import('../features/memory/MemoryPage.tsx'))
const MemoryHome = lazy(() => import('../features/memory/MemoryHome.tsx'))
const VoicePage = lazy(() => import('../features/voice/VoicePage.tsx'))
const IdentityPage = lazy(() => import('../features/voice/IdentityPage.tsx'))

export function App() {
  const { path } = useLocation()
  // A 401 elsewhere asks who is signed in again, only when someone was: a signed-out first load
  // (its early requests all 401) asks once, not once per request.
  useEffect(() => signedOut.on(() => { const known = peek(CURRENT); if (known?.data && !known.error) invalidate(CURRENT) }), [])

  const share = match('/share/:token', path)
  if (share) return <Frame><SharePage token={share.token!} /></Frame>
  const invite = match('/invite/:token', path)
  if (invite) return <Frame><InvitePage token={invite.token!} /></Frame>
  return <SignedInApp path={path} />
}

function SignedInApp({ path }: { path: string }) {
  const current = useCurrentAccount()
  // A 401 after being signed in (the session ended elsewhere or expired) leaves the last account in
  // the cache beside the error: signed out all the same.
  const signedOut = current.error?.status === 401
  const signedIn = Boolean(current.data?.workspace) && !signedOut
  useEffect(() => { if (signedIn) startUploader() }, [signedIn])
  useLiveNotifications(signedIn)
  if (!current.data || signedOut) {
    if (current.error && current.error.status !== 401) return <Frame><ErrorLine error={current.error.message} /></Frame>
    if (current.error) return <Frame><SignIn /></Frame>
    return <Frame><Loading /></Frame>
  }
  if (!current.data.workspace) return <Frame><Welcome /></Frame>
  return <Frame nav><Suspense fallback={<Loading />}><Page path={path} /></Suspense></Frame>
}

function Page({ path }: { path: string }) {
  const session = match('/sessions/:id', path)
  if (session) return <SessionPage id={session.id!} />
  const memory = match('/projects/:id/memory', path)
  if (memory) return <MemoryPage key={memory.id} projectId={memory.id!} />
  const identity = match('/voice/identities/:id', path)
  if (identity) return <IdentityPage key={identity.id} id={identity.id!} />
  const project = match('/projects/:id', path)
  if (project) return <ProjectPage id={project.id!} />
  switch (path.replace(/\/$/, '') || '/') {
    case '/record': return <RecordPage />
    case '/board': return <BoardPage />
    case '/projects': return <ProjectsPage />
    case '/search': return <SearchPage />
    case '/notifications': return <NotificationsPage />
    case '/members': return <MembersPage />
    case '/billing': return <BillingPage />
    case '/runners': return <RunnersPage />
    case '/integrations': return <IntegrationsPage />
    case '/memory': return <MemoryHome />
    case '/voice': return <VoicePage />
    case '/': case '/sessions': case '/signin': case '/welcome': return <SessionsPage />
    default: return <NoSuchPage />
  }
}

/** An address the client has no page for (a mistyped or outdated link). */
function NoSuchPage() {
  const { t } = useI18n()
  return (
    <section>
      <PageTitle title={t('app.noSuchPage')}>{t('app.noSuchPage')}</PageTitle>
      <p>{t('app.noSuchPageHint')} <Link href="/">{t('nav.sessions')}</Link></p>
    </section>
  )
}

function Frame({ children, nav }: { children: React.ReactNode; nav?: boolean }) {
  const { t, locale } = useI18n()
  return (
    <>
      <a className="skip" href="#main">{t('app.skip')}</a>
      <header className="top">
        <Link href="/" className="brand">{t('app.name')}</Link>
        {nav ? <Navigation /> : null}
        <label className="inline language">
          <span className="visually-hidden">{t('nav.language')}</span>
          <select value={locale} onChange={(event) => setLocale(event.target.value as Locale)} aria-label={t('nav.language')}>
            {LOCALES.map((item) => <option key={item.id} value={item.id} lang={item.id}>{item.label}</option>)}
          </select>
        </label>
      </header>
      <OfflineBanner />
      <main id="main">{children}</main>
    </>
  )
}

function Navigation() {
  const { t } = useI18n()
  const { path } = useLocation()
  const notifications = useNotifications()
  const unread = notifications.data?.unreadCount ?? 0
  const extensions = useAvailableExtensions(true)
  const items: [string, string][] = [
    ['/record', t('nav.record')], ['/', t('nav.sessions')], ['/board', t('nav.board')], ['/projects', t('nav.projects')],
    ['/search', t('nav.search')], ['/memory', t('nav.memory')], ['/voice', t('nav.voice')], ['/members', t('nav.members')],
  ]
  const isCurrent = (href: string) => (href === '/' ? path === '/' || path.startsWith('/sessions') : path.startsWith(href))
  // At phone width the navigation is one line that scrolls sideways: the current page's link is brought into it.
  useEffect(() => { document.querySelector('.top nav [aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' }) }, [path, extensions.length])
  return (
    <nav aria-label={t('nav.main')}>
      <ul>
        {items.map(([href, label]) => <li key={href}><Link href={href} aria-current={isCurrent(href) ? 'page' : undefined}>{label}</Link></li>)}
        {extensions.map((extension) => (
          <li key={extension.id}>
            {extension.route
              ? <Link href={extension.href} aria-current={isCurrent(extension.href) ? 'page' : undefined}>{t(extension.label)}</Link>
              : <a href={extension.href}>{t(extension.label)}</a>}
          </li>
        ))}
        <li>
          <Link href="/notifications" aria-current={isCurrent('/notifications') ? 'page' : undefined} data-testid="notifications-link">
            {t('nav.notifications')}
            {unread > 0 ? <span className="count" data-testid="unread-count" data-count={unread}> <span aria-hidden="true">{unread}</span><span className="visually-hidden">{t('nav.unread', { count: unread })}</span></span> : null}
          </Link>
        </li>
        <li><button type="button" className="link" onClick={() => void signOut().then(() => { clearCache(); navigate('/') })}>{t('nav.signOut')}</button></li>
      </ul>
    </nav>
  )
}

/** While the browser is offline: said once, above every page. */
function OfflineBanner() {
  const { t } = useI18n()
  const online = useOnline()
  // Rendered only while offline (an alert is read out as it appears), so pages keep their own status lines to themselves.
  return online ? null : <div role="alert" className="warning offline-banner" data-testid="offline-banner">{t('app.offline')}</div>
}
