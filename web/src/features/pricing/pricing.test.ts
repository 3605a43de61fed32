import { describe, expect, it } from 'vitest'
import {
  browserTimeZone,
  choiceOf,
  currencySymbol,
  findChoice,
  formatMoney,
  isFinalStatus,
  parsePlanQuery,
  perImagePrice,
  planDetailsUrl,
  recommendedPlanId,
  safeRedirect,
  type PricingPlan,
} from './pricing'

const starterInr: PricingPlan = {
  _id: 'v2-starter-inr',
  name: 'Starter',
  currency: 'INR',
  kind: 'subscription',
  rateInfo: [{ value: 149900, rateCode: 'v2-starter-inr-month', interval: 'month', config: { credits: 100 } }],
  featureList: ['100 image credits every month'],
}

const query = (q: Record<string, string>) => new URLSearchParams(q)

describe('money (spec §9)', () => {
  it('shows ₹ for INR and $ for anything else', () => {
    expect(currencySymbol('INR')).toBe('₹')
    expect(currencySymbol('inr')).toBe('₹')
    expect(currencySymbol('USD')).toBe('$')
    expect(currencySymbol('EUR')).toBe('$')
  })

  it('formats minor units with 2 decimals and grouping', () => {
    expect(formatMoney(149900, 'INR')).toBe('₹1,499.00')
    expect(formatMoney(1900, 'USD')).toBe('$19.00')
    expect(formatMoney(22900, 'USD')).toBe('$229.00')
    expect(formatMoney(5, 'USD')).toBe('$0.05')
  })

  it('per-image price to 2 decimals, from integers', () => {
    expect(perImagePrice(149900, 100, 'INR')).toBe('₹14.99')
    expect(perImagePrice(1900, 100, 'USD')).toBe('$0.19')
    expect(perImagePrice(6900, 500, 'USD')).toBe('$0.14') // 13.8 cents
    expect(perImagePrice(22900, 2000, 'USD')).toBe('$0.11') // 11.45 cents → 11
    expect(perImagePrice(1200, 50, 'USD')).toBe('$0.24')
    expect(perImagePrice(1999900, 2000, 'INR')).toBe('₹10.00')
  })

  it('has no per-image price without credits', () => {
    expect(perImagePrice(1900, 0, 'USD')).toBe('$–')
  })
})

describe('/plan-details query (spec §2)', () => {
  const full = {
    rate: '149900',
    piid: 'v2-starter-inr',
    rcid: 'v2-starter-inr-month',
    plan: 'Starter',
    currency: 'INR',
    credits: '100',
  }

  it('reads every parameter', () => {
    expect(parsePlanQuery(query({ ...full, redirectby: '/generate' }))).toEqual({
      ok: true,
      choice: {
        rate: 149900,
        piid: 'v2-starter-inr',
        rcid: 'v2-starter-inr-month',
        plan: 'Starter',
        currency: 'INR',
        credits: 100,
        redirectby: '/generate',
      },
    })
  })

  it('accepts a lower-case currency and no redirectby', () => {
    const parsed = parsePlanQuery(query({ ...full, currency: 'inr' }))
    expect(parsed).toMatchObject({ ok: true, choice: { currency: 'INR' } })
    expect(parsed.ok && 'redirectby' in parsed.choice).toBe(false)
  })

  it('names what is missing or malformed', () => {
    expect(parsePlanQuery(query({}))).toEqual({
      ok: false,
      problems: ['rate', 'piid', 'rcid', 'plan', 'currency', 'credits'],
    })
    expect(parsePlanQuery(query({ ...full, rate: '14.99', currency: 'EUR', credits: '0' }))).toEqual({
      ok: false,
      problems: ['rate', 'currency', 'credits'],
    })
    expect(parsePlanQuery(query({ ...full, piid: 'a b' }))).toEqual({ ok: false, problems: ['piid'] })
  })

  it('drops a redirectby that leaves the site', () => {
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', 'generate']) {
      const parsed = parsePlanQuery(query({ ...full, redirectby: bad }))
      expect(parsed.ok && parsed.choice.redirectby).toBe(undefined)
    }
    expect(safeRedirect(' /my-images ')).toBe('/my-images')
  })

  it('a card choice round-trips through the URL', () => {
    const rate = starterInr.rateInfo[0]!
    const url = planDetailsUrl(choiceOf(starterInr, rate, '/generate'))
    expect(url.startsWith('/plan-details?')).toBe(true)
    const parsed = parsePlanQuery(new URL(url, 'http://x').searchParams)
    expect(parsed).toEqual({ ok: true, choice: choiceOf(starterInr, rate, '/generate') })
  })

  it('finds the plan and rate in the list, or nothing', () => {
    const choice = { piid: 'v2-starter-inr', rcid: 'v2-starter-inr-month', currency: 'INR' as const }
    expect(findChoice([starterInr], choice)?.rate.value).toBe(149900)
    expect(findChoice([starterInr], { ...choice, rcid: 'v2-pro-inr-month' })).toBeNull()
    expect(findChoice([starterInr], { ...choice, currency: 'USD' })).toBeNull()
    expect(findChoice([], choice)).toBeNull()
  })
})

describe('order statuses', () => {
  it('pending is not final; paid, failed, canceled are', () => {
    expect(isFinalStatus('pending')).toBe(false)
    expect(isFinalStatus(undefined)).toBe(false)
    expect(['paid', 'failed', 'canceled'].every((s) => isFinalStatus(s as 'paid'))).toBe(true)
  })
})

describe('the recommended plan', () => {
  const monthly = (id: string, value: number): PricingPlan => ({
    ...starterInr,
    _id: id,
    name: id,
    rateInfo: [{ value, rateCode: `${id}-month`, interval: 'month', config: { credits: 100 } }],
  })
  const pack: PricingPlan = {
    ...starterInr,
    _id: 'pack',
    kind: 'pack',
    rateInfo: [{ value: 99900, rateCode: 'pack-once', interval: 'once', config: { credits: 50 } }],
  }

  it('is the middle monthly plan by price, whatever the order the plans come in', () => {
    const plans = [monthly('business', 1_999_900), pack, monthly('starter', 149_900), monthly('pro', 599_900)]
    expect(recommendedPlanId(plans)).toBe('pro')
  })

  it('is none with fewer than three monthly plans (packs do not count)', () => {
    expect(recommendedPlanId([monthly('starter', 149_900), monthly('pro', 599_900), pack])).toBeUndefined()
    expect(recommendedPlanId([])).toBeUndefined()
  })
})

describe('the time zone sent for the currency', () => {
  // A clock at a given UTC offset (minutes, as getTimezoneOffset writes them: -330 is +05:30).
  const clockAt = (offset: number) => Object.assign(new Date(), { getTimezoneOffset: () => offset })

  it("is the browser's zone on a clock at India's offset", () => {
    expect(browserTimeZone(clockAt(-330))).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone)
  })

  it('is not asked for at any other offset, where it cannot be India', () => {
    for (const offset of [0, 60, -60, -300, -345, 300]) expect(browserTimeZone(clockAt(offset))).toBeUndefined()
  })
})
