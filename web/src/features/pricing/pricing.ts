/**
 * Pure pricing rules of the web app: money and per-image price formatting (spec §9: 2 decimals,
 * ₹ for INR, otherwise $), the /plan-details query (spec §2: rate, piid, rcid, plan, currency,
 * credits, optional redirectby) and the order statuses.
 *
 * Prices arrive from the API as integers in the currency's minor unit (paise, cents); the
 * `rate` query parameter carries that same integer, so no float ever travels.
 */
import type { components } from '@/types/openapi.gen'
import { currencySymbol, formatMoney } from '@/lib/money'

export type Currency = components['schemas']['Currency']
export type PricingPlan = components['schemas']['PricingPlan']
export type PlanRate = components['schemas']['RateInfo']
export type OrderView = components['schemas']['OrderView']
export type OrderStatus = components['schemas']['OrderStatus']

export const CURRENCIES: readonly Currency[] = ['INR', 'USD']

// One formatting of money for the whole app (lib/money); re-exported for this feature's callers.
export { currencySymbol, formatMoney } from '@/lib/money'

/** The cost of one image of a rate, to 2 decimals (spec §9): 149900 INR for 100 → "₹14.99". */
export function perImagePrice(minor: number, credits: number, currency: string): string {
  if (!(credits > 0)) return `${currencySymbol(currency)}–`
  // Rounded from the minor units (integers), so 1900 / 100 credits is exactly 0.19.
  return formatMoney(Math.round(minor / credits), currency)
}

/** The rate a plan card shows and sells: its first one. */
export function mainRate(plan: PricingPlan): PlanRate | undefined {
  return plan.rateInfo[0]
}

/**
 * The plan the page recommends: the middle of the monthly plans by price (Pro among Starter, Pro
 * and Business), the usual choice of a shop that outgrows the entry plan. None with fewer than
 * three monthly plans, where "middle" would mean nothing.
 */
export function recommendedPlanId(plans: PricingPlan[]): string | undefined {
  const monthly = plans
    .map((plan) => ({ plan, rate: mainRate(plan) }))
    .filter((p): p is { plan: PricingPlan; rate: PlanRate } => p.rate?.interval === 'month')
    .sort((a, b) => a.rate.value - b.rate.value)
  if (monthly.length < 3) return undefined
  return monthly[Math.floor((monthly.length - 1) / 2)]?.plan._id
}

/** "/month" for monthly plans, "one-time" for packs. */
export function intervalLabel(interval: PlanRate['interval']): string {
  return interval === 'month' ? 'per month' : 'one-time'
}

// ---------------------------------------------------------------------------
// /plan-details query

export interface PlanChoice {
  /** The rate's price in minor units. */
  rate: number
  /** The plan's `_id`. */
  piid: string
  /** The rate's `rateCode`. */
  rcid: string
  /** The plan's name. */
  plan: string
  currency: Currency
  credits: number
  /** A path of this site to go to after paying. */
  redirectby?: string
}

export type ParsedPlanQuery = { ok: true; choice: PlanChoice } | { ok: false; problems: string[] }

/** A path on this site (never another site): "/generate" yes, "//evil.example" or "https://…" no. */
export function safeRedirect(value: string | null | undefined): string | undefined {
  if (!value) return undefined
  const path = value.trim()
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\') || path.length > 512) return undefined
  return path
}

const PLAN_ID = /^[\w.-]{1,64}$/

/** Reads /plan-details's query; names every missing or malformed parameter. */
export function parsePlanQuery(params: URLSearchParams): ParsedPlanQuery {
  const problems: string[] = []
  const text = (name: string) => params.get(name)?.trim() ?? ''
  const count = (name: string, min: number) => {
    const raw = text(name)
    if (!/^\d{1,12}$/.test(raw) || Number(raw) < min) {
      problems.push(name)
      return 0
    }
    return Number(raw)
  }
  const piid = text('piid')
  const rcid = text('rcid')
  const plan = text('plan')
  const currency = text('currency').toUpperCase()
  const rate = count('rate', 0)
  if (!PLAN_ID.test(piid)) problems.push('piid')
  if (!PLAN_ID.test(rcid)) problems.push('rcid')
  if (!plan || plan.length > 100) problems.push('plan')
  if (!(CURRENCIES as readonly string[]).includes(currency)) problems.push('currency')
  const credits = count('credits', 1)
  if (problems.length) return { ok: false, problems }
  const redirectby = safeRedirect(params.get('redirectby'))
  return {
    ok: true,
    choice: { rate, piid, rcid, plan, currency: currency as Currency, credits, ...(redirectby ? { redirectby } : {}) },
  }
}

/** The choice of a plan's rate as it is bought. */
export function choiceOf(plan: PricingPlan, rate: PlanRate, redirectby?: string): PlanChoice {
  const to = safeRedirect(redirectby)
  return {
    rate: rate.value,
    piid: plan._id,
    rcid: rate.rateCode,
    plan: plan.name,
    currency: plan.currency,
    credits: rate.config.credits,
    ...(to ? { redirectby: to } : {}),
  }
}

export function planDetailsUrl(choice: PlanChoice): string {
  const params = new URLSearchParams({
    rate: String(choice.rate),
    piid: choice.piid,
    rcid: choice.rcid,
    plan: choice.plan,
    currency: choice.currency,
    credits: String(choice.credits),
  })
  if (choice.redirectby) params.set('redirectby', choice.redirectby)
  return `/plan-details?${params.toString()}`
}

/** The plan and rate of the list a choice names, or null when it is not (or no longer) sold. */
export function findChoice(
  plans: readonly PricingPlan[],
  choice: Pick<PlanChoice, 'piid' | 'rcid' | 'currency'>,
): { plan: PricingPlan; rate: PlanRate } | null {
  const plan = plans.find((p) => p._id === choice.piid && p.currency === choice.currency)
  const rate = plan?.rateInfo.find((r) => r.rateCode === choice.rcid)
  return plan && rate ? { plan, rate } : null
}

// ---------------------------------------------------------------------------
// Orders

export function isFinalStatus(status: OrderStatus | undefined): boolean {
  return status === 'paid' || status === 'failed' || status === 'canceled' || status === 'expired'
}

// The UTC offset of India's time zones (Asia/Kolkata, Asia/Calcutta: +05:30 all year, no
// daylight saving), as Date.getTimezoneOffset writes it.
const INDIA_OFFSET_MINUTES = -330

/**
 * The browser's time zone, sent as x-timezone so the server picks the currency: it reads the
 * zone only to tell India's (INR) from any other. Asked only where the clock stands at India's
 * offset: the first Intl.DateTimeFormat of a page costs ~110 ms on a phone (Lighthouse's 4x
 * slower CPU), in the task that asks for the plans before /subscription can show them (issue
 * 39), while the offset is free. Elsewhere the zone cannot be India's, the server's choice is the
 * same without it, and no header is sent.
 */
export function browserTimeZone(now: Date = new Date()): string | undefined {
  if (now.getTimezoneOffset() !== INDIA_OFFSET_MINUTES) return undefined
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
    return zone && zone.length <= 64 ? zone : undefined
  } catch {
    return undefined
  }
}
