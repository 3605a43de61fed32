import { useQuery } from '@tanstack/react-query'
import { useEffect, useState, type ReactNode } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { LoadingBlock } from '@/components/ui/Spinner'
import { useAuth } from '@/hooks/useAuth'
import { subscriptionQueryOptions } from '@/api/subscription'
import { useTakePendingPlan } from '@/hooks/usePendingPlan'
import { rememberPlan } from '@/lib/pendingPlan'
import { usePricing } from '../api/getPricing'
import {
  choiceOf,
  CURRENCIES,
  currencySymbol,
  mainRate,
  perImagePrice,
  planDetailsUrl,
  type Currency,
  type PricingPlan,
  recommendedPlanId,
} from '../pricing'
import { PlanCard } from './PlanCard'
import { SwitchPlanDialog } from './SwitchPlanDialog'
import styles from '../pricing.module.css'

interface SubscriptionPageProps {
  /** The Enterprise Solutions form (the enterprise feature's), placed by the app. */
  enterpriseForm?: ReactNode
}

function CurrencySwitch({ value, onChange }: { value: Currency | undefined; onChange: (c: Currency) => void }) {
  return (
    <div className={styles.currencySwitch} role="group" aria-label="Currency" data-testid="currency-switch">
      {CURRENCIES.map((c) => (
        <button
          key={c}
          type="button"
          className={`${styles.currencySwitchOption}${value === c ? ` ${styles.currencySwitchOptionActive}` : ''}`}
          aria-pressed={value === c}
          onClick={() => onChange(c)}
          data-testid={`currency-${c}`}
        >
          {currencySymbol(c)} {c}
        </button>
      ))}
    </div>
  )
}

/**
 * /subscription (spec §2 Pricing page): the plans as selectable cards, the headline "from"
 * price, a currency switch and the Enterprise Solutions form. Buy Now as a guest opens the
 * login modal (isLoggedInByPricing) and remembers the plan; logging in continues to
 * /plan-details with it (spec §4).
 */
export function SubscriptionPage({ enterpriseForm }: SubscriptionPageProps) {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const redirectby = params.get('redirectby') ?? undefined
  const { isAuthenticated, openLoginPopup, user } = useAuth()
  const userEmail = user?.userEmail ?? ''
  const takePendingPlan = useTakePendingPlan()
  const [currency, setCurrency] = useState<Currency | null>(null)
  const [selected, setSelected] = useState<string | null>(null)
  const pricing = usePricing(currency)
  const plans: PricingPlan[] = pricing.data?.pricingInfo ?? []
  const shownCurrency = pricing.data?.currency
  // A subscriber changes plan here instead of buying a second subscription: their plan is
  // marked, other monthly plans in its currency offer "Switch to…" (a confirmation shows the
  // charge and when it applies), packs are bought as usual.
  const subscription = useQuery({ ...subscriptionQueryOptions(userEmail), enabled: isAuthenticated })
  const live = isAuthenticated && subscription.data && subscription.data.status !== 'canceled' ? subscription.data : null
  const [switching, setSwitching] = useState<{ piid: string; rcid: string; name: string } | null>(null)
  const relationOf = (plan: PricingPlan): 'current' | 'switch' | undefined => {
    const rate = mainRate(plan)
    if (!live || !rate || rate.interval !== 'month' || plan.currency !== live.currency) return undefined
    return rate.rateCode === live.rateCode ? 'current' : 'switch'
  }

  // Logged in through the modal Buy Now opened: on to the remembered plan.
  useEffect(() => {
    if (!isAuthenticated) return
    const url = takePendingPlan()
    if (url) void navigate(url)
  }, [isAuthenticated, takePendingPlan, navigate])

  const buy = (plan: PricingPlan) => {
    const rate = mainRate(plan)
    if (!rate) return
    setSelected(plan._id)
    if (relationOf(plan) === 'switch') {
      setSwitching({ piid: plan._id, rcid: rate.rateCode, name: plan.name })
      return
    }
    const url = planDetailsUrl(choiceOf(plan, rate, redirectby))
    if (isAuthenticated) {
      void navigate(url)
    } else {
      rememberPlan(url)
      openLoginPopup(true)
    }
  }

  const recommended = recommendedPlanId(plans)
  const first = plans[0]
  const firstRate = first ? mainRate(first) : undefined

  return (
    <div className="page">
      <header className={`page-header ${styles.pricingHeader}`}>
        <p className="eyebrow">Pricing</p>
        <h1 data-testid="pricing-headline">
          {first && firstRate ? (
            <>
              AI fashion images from{' '}
              <span className={styles.pricingFrom} data-testid="pricing-from">
                {perImagePrice(firstRate.value, firstRate.config.credits, first.currency)}
              </span>{' '}
              per image
            </>
          ) : (
            'Plans for every catalogue'
          )}
        </h1>
        <p className="page-header__sub">
          Pick a monthly plan or a one-time credit pack. Credits work for model swaps and background replaces.
        </p>
        <CurrencySwitch value={shownCurrency} onChange={setCurrency} />
      </header>

      {pricing.isPending ? (
        <LoadingBlock label="Loading plans…" />
      ) : plans.length === 0 ? (
        // A load failure is only logged (spec §8): the page stays neutral.
        <div className="empty-state" data-testid="pricing-empty">
          <p className="empty-state__title">Plans are not available right now.</p>
          <p className="muted">Please check back in a little while, or ask us below about a plan for your team.</p>
        </div>
      ) : (
        <div
          className={`${styles.planGrid}${pricing.isPlaceholderData ? ` ${styles.planGridStale}` : ''}`}
          aria-busy={pricing.isFetching}
          data-testid="plan-grid"
        >
          {plans.map((plan) => (
            <PlanCard
              key={plan._id}
              plan={plan}
              selected={selected === plan._id}
              onSelect={() => setSelected(plan._id)}
              onBuy={() => buy(plan)}
              relation={relationOf(plan)}
              recommended={plan._id === recommended}
            />
          ))}
        </div>
      )}

      {switching && (
        <SwitchPlanDialog
          choice={{ piid: switching.piid, rcid: switching.rcid }}
          planName={switching.name}
          userEmail={userEmail}
          onClose={() => setSwitching(null)}
        />
      )}

      {/* After the plans, not before: placed while they load, the block sat under the spinner
          and jumped down a screen when the cards came (layout shift 0.58 at 390 px, issue 39). */}
      {enterpriseForm && !pricing.isPending && (
        <section className={`section ${styles.pricingEnterprise}`} aria-labelledby="enterprise-solutions-title">
          <div>
            <h2 id="enterprise-solutions-title" className={styles.pricingEnterpriseTitle}>
              Enterprise Solutions
            </h2>
            <p className="muted">
              Volume pricing, API access, an SLA and models trained for your brand. Leave your details and our expert
              will get in touch.
            </p>
          </div>
          {enterpriseForm}
        </section>
      )}
    </div>
  )
}
