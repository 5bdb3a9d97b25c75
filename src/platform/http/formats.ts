// JSON Schema formats as the API means them. ajv-formats' `date` accepts any four-digit year
// ("0000-03-01" passed as a due date); a calendar date here is one from 1900 to 9999.
import type { Plugin } from 'ajv'
import addFormats from 'ajv-formats'

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

export function isCalendarDate(value: string): boolean {
  const match = CALENDAR_DATE.exec(value)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return year >= 1900 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** ajv-formats, then the formats it gets wrong for us (the compiler leaves ajv-formats out when a plugin is it). */
export const formatPlugins: Plugin<unknown>[] = [
  addFormats as unknown as Plugin<unknown>,
  (ajv) => ajv.addFormat('date', { type: 'string', validate: isCalendarDate, compare: (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0) }),
]
