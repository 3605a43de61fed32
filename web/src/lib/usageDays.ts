/**
 * Days of credit usage, shared by the Dashboard's chart and Billing's credit history: windows
 * of UTC days (the ledger's days, what GET creditUsage takes), the per-day series with missing
 * days filled with 0, and the axis labels.
 */

export interface UsageDay {
  /** YYYY-MM-DD, a UTC day. */
  date: string
  spent: number
  refunded: number
}

const DAY_MS = 24 * 60 * 60 * 1000
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/

function toIsoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

function dayStart(isoDay: string): number {
  if (!ISO_DAY.test(isoDay)) throw new RangeError(`Not a YYYY-MM-DD day: ${isoDay}`)
  const ms = Date.parse(`${isoDay}T00:00:00Z`)
  if (Number.isNaN(ms)) throw new RangeError(`Not a YYYY-MM-DD day: ${isoDay}`)
  return ms
}

/** The last `days` UTC days up to and including today's: what GET creditUsage is asked for. */
export function lastDays(days: number, now: Date = new Date()): { fromDate: string; toDate: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return { fromDate: toIsoDay(today - (days - 1) * DAY_MS), toDate: toIsoDay(today) }
}

/**
 * One entry per day from `fromDate` to `toDate` (inclusive, oldest first): the server's numbers
 * where it sent a day (summed if it sent one twice), 0 where it did not; days outside the
 * window are dropped.
 */
export function fillDays(days: readonly UsageDay[], fromDate: string, toDate: string): UsageDay[] {
  const start = dayStart(fromDate)
  const end = dayStart(toDate)
  const byDay = new Map<string, UsageDay>()
  for (const d of days) {
    const seen = byDay.get(d.date)
    byDay.set(d.date, {
      date: d.date,
      spent: (seen?.spent ?? 0) + (Number(d.spent) || 0),
      refunded: (seen?.refunded ?? 0) + (Number(d.refunded) || 0),
    })
  }
  const out: UsageDay[] = []
  for (let ms = start; ms <= end; ms += DAY_MS) {
    const date = toIsoDay(ms)
    out.push(byDay.get(date) ?? { date, spent: 0, refunded: 0 })
  }
  return out
}

/** "Mar 5": a UTC day as a short label for the chart's axis. */
export function dayLabel(isoDay: string): string {
  return new Date(dayStart(isoDay)).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
}
