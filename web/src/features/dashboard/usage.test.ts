import { describe, expect, it } from 'vitest'
import { countThisMonth, parseServerTime } from './usage'

describe('dates from the server', () => {
  it('reads a timestamp without an offset as UTC', () => {
    expect(parseServerTime('2025-01-01T10:00:00.5').toISOString()).toBe('2025-01-01T10:00:00.500Z')
    expect(parseServerTime('2025-01-01T10:00:00+02:00').toISOString()).toBe('2025-01-01T08:00:00.000Z')
  })
})

describe('countThisMonth', () => {
  const now = new Date(2025, 2, 15, 12) // 15 March, local time
  const march = new Date(2025, 2, 3).toISOString()
  const february = new Date(2025, 1, 27).toISOString()

  it('counts the generations made since the first of the month', () => {
    expect(countThisMonth([march, march, february], 3, now)).toEqual({ count: 2, complete: true })
  })

  it('says when the page may have cut the month short', () => {
    expect(countThisMonth([march, march], 5, now)).toEqual({ count: 2, complete: false })
    expect(countThisMonth([march, march], 2, now)).toEqual({ count: 2, complete: true })
    expect(countThisMonth([], 0, now)).toEqual({ count: 0, complete: true })
  })
})
