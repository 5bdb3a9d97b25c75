// Sign-in with the mailed 6-digit code: one box per digit (typing moves on, Backspace moves back,
// pasting fills them all), resend with the hourly limit shown.
import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react'
import { invalidate, useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import { ErrorLine, PageTitle } from '../../lib/ui.tsx'
import { clientConfig } from '../../lib/config.ts'
import { useLocation } from '../../app/router.ts'
import { CURRENT, codesLeft, noteSend, sendCode, signInWith, verifyCode } from './api.ts'

export function SignIn({ presetEmail, onSignedIn, embedded }: { presetEmail?: string; onSignedIn?: () => void; embedded?: boolean }) {
  const { t } = useI18n()
  const heading = embedded ? <h2>{t('signin.title')}</h2> : <PageTitle title={t('signin.title')}>{t('signin.title')}</PageTitle>
  const [email, setEmail] = useState(presetEmail ?? '')
  const [sentTo, setSentTo] = useState<string>()
  const [digits, setDigits] = useState<string[]>(['', '', '', '', '', ''])
  const boxes = useRef<(HTMLInputElement | null)[]>([])
  const { busy, error, run } = useAction()
  // Back from an identity provider that failed: better-auth's error code in the query.
  const providerError = useLocation().query.get('error')?.slice(0, 60)
  // After the heading took the focus (PageTitle, a child: its effect runs first), the code boxes take it.
  useEffect(() => { if (sentTo) boxes.current[0]?.focus() }, [sentTo])

  const send = (address: string) => run(async () => {
    await sendCode(address)
    noteSend(address)
    setSentTo(address)
    setDigits(['', '', '', '', '', ''])
  })

  const verify = (code: string) => run(async () => {
    await verifyCode(sentTo!, code)
    invalidate(CURRENT)
    onSignedIn?.()
  })

  const setDigit = (index: number, value: string) => {
    const clean = value.replace(/\D/g, '')
    if (clean.length > 1) return fill(clean, index)
    const next = [...digits]
    next[index] = clean
    setDigits(next)
    if (clean && index < 5) boxes.current[index + 1]?.focus()
    if (next.every((digit) => digit !== '')) void verify(next.join(''))
  }
  const fill = (text: string, from = 0) => {
    const next = [...digits]
    for (let i = 0; i < text.length && from + i < 6; i += 1) next[from + i] = text[i]!
    setDigits(next)
    boxes.current[Math.min(5, from + text.length)]?.focus()
    if (next.every((digit) => digit !== '')) void verify(next.join(''))
  }
  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && !digits[index] && index > 0) {
      // An empty box: Backspace clears the previous digit and moves there.
      event.preventDefault()
      setDigits(digits.map((digit, position) => (position === index - 1 ? '' : digit)))
      boxes.current[index - 1]?.focus()
    }
    if (event.key === 'ArrowLeft' && index > 0) boxes.current[index - 1]?.focus()
    if (event.key === 'ArrowRight' && index < 5) boxes.current[index + 1]?.focus()
  }
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text').replace(/\D/g, '').slice(0, 6)
    if (text) { event.preventDefault(); fill(text) }
  }

  if (!sentTo) {
    return (
      <section className={embedded ? '' : 'card narrow'}>
        {heading}
        <form onSubmit={(event) => { event.preventDefault(); void send(email.trim()) }}>
          <label htmlFor="signin-email">{t('signin.email')}</label>
          <input id="signin-email" type="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
          <button type="submit" className="primary" disabled={busy}>{t('signin.sendCode')}</button>
        </form>
        <ErrorLine error={error ?? (providerError ? t('signin.providerFailed', { code: providerError }) : undefined)} />
        <Providers busy={busy} onChoose={(id) => void run(() => signInWith(id))} />
      </section>
    )
  }
  const left = codesLeft(sentTo)
  const { mailDelivery } = clientConfig()
  return (
    <section className={embedded ? '' : 'card narrow'}>
      {heading}
      <p role="status">{t('signin.sent', { email: sentTo })}</p>
      {mailDelivery === 'smtp' ? null : <p className="muted" data-testid="mail-delivery">{t(mailDelivery === 'log' ? 'signin.codeInLog' : 'signin.codeInOutbox')}</p>}
      <form onSubmit={(event) => { event.preventDefault(); void verify(digits.join('')) }}>
        <fieldset className="otp">
          <legend>{t('signin.code')}</legend>
          {digits.map((digit, index) => (
            <input
              key={index} ref={(element) => { boxes.current[index] = element }}
              inputMode="numeric" autoComplete={index === 0 ? 'one-time-code' : 'off'} maxLength={6} pattern="[0-9]*"
              aria-label={t('signin.digit', { n: index + 1 })} value={digit}
              onChange={(event) => setDigit(index, event.target.value)} onKeyDown={(event) => onKeyDown(index, event)} onPaste={onPaste}
            />
          ))}
        </fieldset>
        <button type="submit" className="primary" disabled={busy || digits.some((digit) => !digit)}>{t('signin.verify')}</button>
      </form>
      <ErrorLine error={error} />
      <p className="muted">{t('signin.resendLimit', { left })}</p>
      <div className="row">
        <button type="button" disabled={busy || left === 0} onClick={() => void send(sentTo)}>{t('signin.resend')}</button>
        <button type="button" className="link" onClick={() => setSentTo(undefined)}>{t('signin.otherEmail')}</button>
      </div>
    </section>
  )
}

/** A button per external identity provider the server is configured with; none when there is none. */
function Providers({ busy, onChoose }: { busy: boolean; onChoose: (id: string) => void }) {
  const { t } = useI18n()
  const providers = clientConfig().authProviders
  if (providers.length === 0) return null
  return (
    <div className="providers" role="group" aria-labelledby="providers-title">
      <p id="providers-title" className="muted">{t('signin.providers')}</p>
      {providers.map((provider) => (
        <button key={provider.id} type="button" disabled={busy} onClick={() => onChoose(provider.id)}>{t('signin.with', { name: provider.name })}</button>
      ))}
    </div>
  )
}
