import { describe, expect, it } from 'vitest'
import { dayLabel, fillDays, lastDays } from './usageDays'

describe('lastDays', () => {
  it('ends on today in UTC and spans the given number of days', () => {
    // 23:30 on 1 March in UTC-5 is already 2 March in UTC.
    const now = new Date('2025-03-02T04:30:00Z')
    expect(lastDays(30, now)).toEqual({ fromDate: '2025-02-01', toDate: '2025-03-02' })
    expect(lastDays(1, now)).toEqual({ fromDate: '2025-03-02', toDate: '2025-03-02' })
  })
})

describe('fillDays', () => {
  it('fills every missing day of the window with 0, oldest first', () => {
    const filled = fillDays([{ date: '2024-02-28', spent: 3, refunded: 1 }], '2024-02-27', '2024-03-01')
    expect(filled).toEqual([
      { date: '2024-02-27', spent: 0, refunded: 0 },
      { date: '2024-02-28', spent: 3, refunded: 1 },
      { date: '2024-02-29', spent: 0, refunded: 0 },
      { date: '2024-03-01', spent: 0, refunded: 0 },
    ])
  })

  it('gives 30 entries for a 30-day window with no data', () => {
    const { fromDate, toDate } = lastDays(30, new Date('2025-01-15T12:00:00Z'))
    const filled = fillDays([], fromDate, toDate)
    expect(filled).toHaveLength(30)
    expect(filled[0]).toEqual({ date: '2024-12-17', spent: 0, refunded: 0 })
    expect(filled.at(-1)?.date).toBe('2025-01-15')
    expect(filled.every((d) => d.spent === 0 && d.refunded === 0)).toBe(true)
  })

  it('keeps the order of the window whatever the order of the input, sums repeated days and drops outsiders', () => {
    const filled = fillDays(
      [
        { date: '2025-01-03', spent: 2, refunded: 0 },
        { date: '2024-12-31', spent: 9, refunded: 9 },
        { date: '2025-01-01', spent: 1, refunded: 0 },
        { date: '2025-01-03', spent: 1, refunded: 1 },
      ],
      '2025-01-01',
      '2025-01-03',
    )
    expect(filled).toEqual([
      { date: '2025-01-01', spent: 1, refunded: 0 },
      { date: '2025-01-02', spent: 0, refunded: 0 },
      { date: '2025-01-03', spent: 3, refunded: 1 },
    ])
  })

  it('returns nothing for an inverted window and refuses a malformed day', () => {
    expect(fillDays([], '2025-01-02', '2025-01-01')).toEqual([])
    expect(() => fillDays([], '2025/01/01', '2025-01-02')).toThrow(RangeError)
  })
})

describe('dayLabel', () => {
  it('labels a day as month and day', () => {
    expect(dayLabel('2025-03-05')).toBe('Mar 5')
  })
})
