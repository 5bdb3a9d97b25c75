// The better-auth instance: email one-time codes, social and OpenID Connect sign-in, cookie
// sessions. Mounted at /api/auth/* by mount.ts; its tables are auth_user, auth_session,
// auth_account and auth_verification.
import { randomUUID } from 'node:crypto'
import { betterAuth, type BetterAuthOptions } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import { emailOTP, genericOAuth } from 'better-auth/plugins'
import { getMigrations } from 'better-auth/db/migration'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config.ts'
import type { Database } from '../db/index.ts'
import { newId } from '../ids.ts'
import type { Mailer } from '../mail/mailer.ts'
import { reserveOtpSend } from './otp-send-limit.ts'

export const AUTH_BASE_PATH = '/api/auth'
export const COOKIE_PREFIX = 'service-auth'
/** better-auth reads the client address from this header; mount.ts sets it from Fastify's request.ip */
export const CLIENT_IP_HEADER = 'x-confer-client-ip'
export const OTP_LENGTH = 6
export const OTP_TTL_SECONDS = 600
export const OTP_ALLOWED_ATTEMPTS = 5
export const SESSION_EXPIRES_SECONDS = 7 * 86_400
/** a session used after this age is extended by another SESSION_EXPIRES_SECONDS */
export const SESSION_UPDATE_AGE_SECONDS = 86_400

/**
 * better-auth endpoints Confer does not offer: password sign-in is off, so resetting a password
 * (which would mail a code outside the per-mailbox limit) is too. They answer 404.
 */
export const DISABLED_AUTH_PATHS = [
  '/email-otp/request-password-reset', '/forget-password/email-otp', '/email-otp/reset-password',
  '/request-password-reset', '/forget-password', '/reset-password', '/sign-in/email', '/sign-up/email',
  '/change-password', '/set-password',
]

export const sessionCookieName = (secure: boolean) => `${secure ? '__Secure-' : ''}${COOKIE_PREFIX}.session_token`

export type AuthDeps = { config: Config; database: Database; mailer: Mailer; secret: string; log: FastifyBaseLogger }

export function authOptions({ config, database, mailer, secret, log }: AuthDeps) {
  const socialProviders: BetterAuthOptions['socialProviders'] = {}
  if (config.github) socialProviders.github = { ...config.github }
  if (config.google) socialProviders.google = { ...config.google }

  return {
    appName: 'Confer',
    baseURL: config.publicUrl.origin,
    basePath: AUTH_BASE_PATH,
    secret,
    database: { db: database.db, type: database.dialect },
    trustedOrigins: [config.publicUrl.origin, ...config.trustedOrigins, `${config.appScheme}://`],
    user: { modelName: 'auth_user' },
    session: { modelName: 'auth_session', expiresIn: SESSION_EXPIRES_SECONDS, updateAge: SESSION_UPDATE_AGE_SECONDS },
    account: { modelName: 'auth_account' },
    verification: { modelName: 'auth_verification' },
    // Our own limits apply (http/rate-limit.ts and the per-mailbox counter below).
    rateLimit: { enabled: false },
    disabledPaths: DISABLED_AUTH_PATHS,
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      // better-auth turns its origin and callbackURL checks off when NODE_ENV is test; keep them on everywhere.
      disableOriginCheck: false,
      useSecureCookies: config.secureCookies,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: ({ model }: { model: string }) => (model === 'user' ? newId('acc') : randomUUID()) },
    },
    socialProviders,
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== '/email-otp/send-verification-otp') return
        if (ctx.body?.type === 'forget-password') {
          throw new APIError('BAD_REQUEST', { code: 'PASSWORD_SIGN_IN_OFF', message: 'Password sign-in is off: there is no password to reset.' })
        }
        const email = typeof ctx.body?.email === 'string' ? ctx.body.email : ''
        if (!email) return
        const retryAfter = await reserveOtpSend(database, email)
        if (retryAfter > 0) {
          throw new APIError('TOO_MANY_REQUESTS', {
            code: 'OTP_SEND_LIMIT',
            message: `At most 5 codes per mailbox per hour; try again in ${retryAfter} s.`,
          }, { 'Retry-After': String(retryAfter) })
        }
      }),
    },
    plugins: [
      emailOTP({
        otpLength: OTP_LENGTH,
        expiresIn: OTP_TTL_SECONDS,
        allowedAttempts: OTP_ALLOWED_ATTEMPTS,
        storeOTP: 'hashed',
        async sendVerificationOTP({ email, otp }) {
          // Not awaited by the caller's response time: delivery errors are logged and kept in the outbox.
          void mailer.send({
            to: email,
            subject: `Your Confer sign-in code: ${otp}`,
            text: `Your Confer sign-in code is ${otp}.\n\nIt expires in 10 minutes. If you did not ask for it, ignore this message.`,
            highlight: otp,
          }).catch((error: unknown) => log.error({ err: error }, 'could not send sign-in code'))
        },
      }),
      ...(config.oidc
        ? [genericOAuth({
            config: [{
              providerId: config.oidc.providerId,
              discoveryUrl: config.oidc.discoveryUrl,
              clientId: config.oidc.clientId,
              clientSecret: config.oidc.clientSecret,
              scopes: ['openid', 'email', 'profile'],
              pkce: true,
            }],
          })]
        : []),
    ],
  } satisfies BetterAuthOptions
}

export function createAuth(deps: AuthDeps) {
  return betterAuth(authOptions(deps))
}

export type Auth = ReturnType<typeof createAuth>

export async function migrateAuthTables(deps: AuthDeps) {
  const { runMigrations } = await getMigrations(authOptions(deps))
  await runMigrations()
}
