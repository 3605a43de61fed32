/**
 * Pure helpers of the dashboard: timestamps from the server and the generations of this month
 * (the days of credit usage are lib/usageDays).
 */

/** The server's timestamps are UTC; SQLite's come without an offset, so one is added. */
export function parseServerTime(value: string): Date {
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(value)
  return new Date(hasZone ? value : `${value}Z`)
}

/**
 * How many of these generations (newest first, the first page of the list) were made since the
 * start of this month, local time; `complete` is false when the page may have cut the month
 * short (every item on it is from this month and the server has more).
 */
export function countThisMonth(
  createdAt: readonly string[],
  total: number,
  now: Date = new Date(),
): { count: number; complete: boolean } {
  const monthStart = new Date(now.getFullYear(), now.getMonth(), 1).getTime()
  const count = createdAt.filter((t) => parseServerTime(t).getTime() >= monthStart).length
  return { count, complete: count < createdAt.length || total <= createdAt.length }
}
