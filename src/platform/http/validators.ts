// Field checks that JSON Schema cannot express. Each throws a 400 naming the field.
import { badRequest } from './errors.ts'

const zones = new Set(Intl.supportedValuesOf('timeZone'))

/** An IANA time zone name such as Europe/Berlin (UTC is accepted too). */
export function assertTimeZone(field: string, value: string | undefined) {
  if (value === undefined || zones.has(value) || value === 'UTC' || value === 'Etc/UTC') return
  try {
    new Intl.DateTimeFormat('en', { timeZone: value })
    return
  } catch {
    throw badRequest(field, 'timezone', `${field} must be an IANA time zone such as Europe/Berlin`)
  }
}

/** A well-formed BCP 47 language tag such as en, en-GB or zh-Hans; returns its canonical form. */
export function canonicalLanguageTag(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  try {
    const [canonical] = Intl.getCanonicalLocales(value)
    if (canonical) return canonical
  } catch {
    // reported below
  }
  throw badRequest(field, 'language_tag', `${field} must be a BCP 47 language tag such as en or zh-Hans`)
}

/** Trimmed text that must keep at least one character. */
export function requiredText(field: string, value: string): string {
  const trimmed = value.trim()
  if (trimmed === '') throw badRequest(field, 'minLength', `${field} must not be empty or blank`)
  return trimmed
}
