import { useEffect, useId, useRef } from 'react'
import { IconCoins } from '@/components/ui/icons'
import { useCredits } from '@/hooks/useCredits'
import { formatCredits, pluralize } from '@/lib/format'

interface BalanceCardProps {
  /** The card's heading ("Balance" on the dashboard, "Credit" on User Setting). */
  title: string
  /** data-testid of the card; the figures' are `${valueTestId}-free|paid|total`. */
  testId: string
  valueTestId: string
  /** Extra classes on the card (the page's grid item). */
  className?: string
  id?: string
  /** A line under the figures: reserved credits, or why the balance is missing. */
  withNote?: boolean
  /** Outlined and scrolled into view (User Setting opened from the sidebar's credit). */
  highlighted?: boolean
}

const value = (n: number | undefined) => (n === undefined ? '–' : formatCredits(n))

/** The account's free, paid and total credits, fetched afresh when the card mounts. */
export function BalanceCard({ title, testId, valueTestId, className, id, withNote = false, highlighted = false }: BalanceCardProps) {
  const titleId = useId()
  const ref = useRef<HTMLElement>(null)
  const { data: credits, isError } = useCredits({ fresh: true })

  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView({ block: 'center' })
  }, [highlighted])

  const classes = ['card', 'balance-card', className, highlighted && 'card--highlight'].filter(Boolean).join(' ')

  return (
    <section
      ref={ref}
      id={id}
      className={classes}
      aria-labelledby={titleId}
      data-testid={testId}
      data-highlighted={highlighted ? 'true' : 'false'}
    >
      <h2 id={titleId} className="card__title balance-card__title">
        <IconCoins /> {title}
      </h2>
      <dl className="credit-stats">
        <div>
          <dt>Free</dt>
          <dd data-testid={`${valueTestId}-free`}>{value(credits?.free)}</dd>
        </div>
        <div>
          <dt>Paid</dt>
          <dd data-testid={`${valueTestId}-paid`}>{value(credits?.paid)}</dd>
        </div>
        <div className="credit-stats__total">
          <dt>Total</dt>
          <dd data-testid={`${valueTestId}-total`}>{value(credits?.total)}</dd>
        </div>
      </dl>
      {withNote && (
        <p className="muted balance-card__note" data-testid={`${valueTestId}-note`}>
          {isError && !credits
            ? 'The balance could not be loaded right now.'
            : credits && credits.held > 0
              ? `${pluralize(credits.held, 'credit')} reserved for running generations.`
              : 'Free credits are used first.'}
        </p>
      )}
    </section>
  )
}
