// The Stripe client, built from configuration when billing is on (the SDK is loaded only then: a
// self-hosted server does not pay for it at start). STRIPE_API_BASE points it at another server
// (the tests' stand-in for api.stripe.com); the secret key is never logged.
import type Stripe from 'stripe'
import type { StripeConfig } from '../../config.ts'
import { AppError } from '../../platform/http/errors.ts'

export type StripeClient = Stripe

export async function createStripeClient(config: StripeConfig): Promise<StripeClient> {
  const { default: StripeSdk } = await import('stripe')
  const base = config.apiBase
  return new StripeSdk(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Confer' },
    ...(base ? {
      host: base.hostname,
      port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    } : {}),
  })
}

/**
 * Runs a call to Stripe; a failure there (unreachable, refused, misconfigured price) is no fault
 * of the caller's input, so it answers 503 and is logged without the key.
 */
export async function callStripe<T>(log: Logger, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw stripeFailure(log, what, error)
  }
}

type Logger = { error(object: unknown, message: string): void }

export function stripeFailure(log: Logger, what: string, error: unknown): AppError {
  const failure = isStripeError(error)
    ? { type: error.type, code: error.code, statusCode: error.statusCode, requestId: error.requestId, message: error.message }
    : { message: (error as Error).message }
  log.error({ stripe: failure }, `Stripe: could not ${what}`)
  return new AppError('service_unavailable', `The payment provider could not ${what} just now; try again shortly.`)
}

/** The SDK's errors (StripeInvalidRequestError, StripeConnectionError, …), told apart by their `type`. */
export function isStripeError(error: unknown): error is Pick<Stripe.errors.StripeError, 'type' | 'code' | 'statusCode' | 'requestId' | 'message'> {
  const type = (error as { type?: unknown } | null)?.type
  return error instanceof Error && typeof type === 'string' && type.startsWith('Stripe')
}
