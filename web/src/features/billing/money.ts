/**
 * Pure formatting of the billing page: money from minor units (spec §9: 2 decimals, ₹ for INR,
 * otherwise $), dates of payments and renewals, and the credit history's numbers.
 */

// One formatting of money for the whole app (lib/money); re-exported for this feature's callers.
export { currencySymbol, formatMoney } from '@/lib/money'

/** "15 Jan 2026" for an ISO 8601 time (the server's are UTC), or "–" when unreadable. */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '–'
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return '–'
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
}

/** "15 Jan 2026, 10:30" in the viewer's time zone. */
export function formatMoment(iso: string): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return '–'
  return new Date(ms).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  })
}

/** A credit movement with its sign: +50, -1, 0. */
export function formatDelta(delta: number): string {
  return delta > 0 ? `+${delta}` : String(delta)
}

export interface UsageTotals {
  spent: number
  refunded: number
  grantedFree: number
  grantedPaid: number
}

/** The range's totals from its per-day totals. */
export function sumDays(days: readonly UsageTotals[]): UsageTotals {
  return days.reduce<UsageTotals>(
    (sum, d) => ({
      spent: sum.spent + d.spent,
      refunded: sum.refunded + d.refunded,
      grantedFree: sum.grantedFree + d.grantedFree,
      grantedPaid: sum.grantedPaid + d.grantedPaid,
    }),
    { spent: 0, refunded: 0, grantedFree: 0, grantedPaid: 0 },
  )
}

/** How many pages `total` items make (at least 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)))
}

/** The longest range GET creditUsage answers (a year, leap day included). */
export const MAX_RANGE_DAYS = 366
const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Why a chosen from/to range cannot be asked for, in words for the person, or null when it
 * can: both dates, from before to, not past today (UTC), at most a year.
 */
export function rangeProblem(fromDate: string, toDate: string, now: Date = new Date()): string | null {
  const from = Date.parse(`${fromDate}T00:00:00Z`)
  const to = Date.parse(`${toDate}T00:00:00Z`)
  if (!fromDate || !toDate || Number.isNaN(from) || Number.isNaN(to)) return 'Choose both dates.'
  if (from > to) return 'The start date is after the end date.'
  if (to > Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())) return 'The end date is in the future.'
  if ((to - from) / DAY_MS + 1 > MAX_RANGE_DAYS) return 'Choose at most a year.'
  return null
}

export interface UsageDay extends UsageTotals {
  date: string
}

/** The range's per-day totals as CSV (RFC 4180, CRLF lines), one row per UTC day. */
export function usageCsv(days: readonly UsageDay[]): string {
  const rows = [['date', 'spent', 'refunded', 'free_added', 'paid_added']]
  for (const d of days) rows.push([d.date, String(d.spent), String(d.refunded), String(d.grantedFree), String(d.grantedPaid)])
  return rows.map((row) => row.join(',')).join('\r\n') + '\r\n'
}
