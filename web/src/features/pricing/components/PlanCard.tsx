import { IconCheck } from '@/components/ui/icons'
import { formatCredits } from '@/lib/format'
import { formatMoney, intervalLabel, mainRate, perImagePrice, type PricingPlan } from '../pricing'
import styles from '../pricing.module.css'

interface PlanCardProps {
  plan: PricingPlan
  selected: boolean
  onSelect: () => void
  onBuy: () => void
  /** How the card stands to the caller's subscription: their plan, or one to switch to. */
  relation?: 'current' | 'switch'
  /** The plan the page recommends (pricing.recommendedPlanId): highlighted, with a badge. */
  recommended?: boolean
}

/** One plan (spec §2): name, monthly price, image credits, per-image cost, features, Buy Now. */
export function PlanCard({ plan, selected, onSelect, onBuy, relation, recommended = false }: PlanCardProps) {
  const rate = mainRate(plan)
  const titleId = `plan-${plan._id}-title`
  // The subscriber's own plan is what they look for first; the recommendation is for everyone else.
  const flagged = recommended && relation !== 'current'
  const classes = [
    'card',
    styles.planCard,
    flagged ? styles.planCardRecommended : '',
    selected || relation === 'current' ? 'card--highlight' : '',
  ].filter(Boolean)
  return (
    <article
      className={classes.join(' ')}
      aria-labelledby={titleId}
      data-testid="plan-card"
      data-plan-id={plan._id}
      data-plan-name={plan.name}
      data-current={relation === 'current' ? 'true' : undefined}
      data-recommended={flagged ? 'true' : undefined}
      onClick={onSelect}
    >
      {flagged && (
        <p className={styles.planCardRibbon} data-testid="plan-recommended">
          Recommended
        </p>
      )}
      <header className={styles.planCardHead}>
        <h2 id={titleId} className={styles.planCardName}>
          {plan.name}
        </h2>
        {relation === 'current' ? (
          <span className={`status-pill status-pill--completed ${styles.currentBadge}`} data-testid="current-plan">
            Your plan
          </span>
        ) : (
          <span className={`chip ${styles.planCardKind}`}>{plan.kind === 'subscription' ? 'Monthly' : 'One-time'}</span>
        )}
      </header>
      {rate ? (
        <>
          <p className={styles.planCardPrice}>
            <span className={styles.planCardAmount} data-testid="plan-price">
              {formatMoney(rate.value, plan.currency)}
            </span>
            <span className={styles.planCardInterval}>{intervalLabel(rate.interval)}</span>
          </p>
          <p data-testid="plan-credits">
            <strong>{formatCredits(rate.config.credits)}</strong> image credits
            {rate.interval === 'month' ? ' every month' : ''}
          </p>
          <p className={styles.planCardPerImage} data-testid="plan-per-image">
            {perImagePrice(rate.value, rate.config.credits, plan.currency)} per image
          </p>
        </>
      ) : (
        <p className="muted">Not on sale at the moment.</p>
      )}
      <ul className={styles.planCardFeatures}>
        {plan.featureList.map((feature) => (
          <li key={feature}>
            <IconCheck size={16} />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className={`btn btn--block ${selected || flagged ? 'btn--primary' : 'btn--secondary'}`}
        disabled={!rate || relation === 'current'}
        onClick={(e) => {
          e.stopPropagation()
          onBuy()
        }}
        data-testid="buy-now"
      >
        {relation === 'current' ? 'Current plan' : relation === 'switch' ? `Switch to ${plan.name}` : 'Buy Now'}
      </button>
    </article>
  )
}
