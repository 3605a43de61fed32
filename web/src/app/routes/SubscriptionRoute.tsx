import { lazy, Suspense } from 'react'
import { LoadingBlock } from '@/components/ui/Spinner'
import { SubscriptionPage } from '@/features/pricing/components/SubscriptionPage'

// The Enterprise Solutions form (react-hook-form and zod, 35 KB compressed) is its own chunk,
// fetched when the block that holds it is placed (below the plans, once they have come): the
// page renders as soon as its own code is in. Fetched with the page, it was part of what a
// phone waited for before the first paint (issue 39).
const EnterpriseForm = lazy(() =>
  import('@/features/enterprise/components/EnterpriseForm').then((m) => ({ default: m.EnterpriseForm })),
)

/** /subscription: the pricing page with the enterprise feature's form. */
export function SubscriptionRoute() {
  return (
    <SubscriptionPage
      enterpriseForm={
        <Suspense fallback={<LoadingBlock label="Loading the form…" />}>
          <EnterpriseForm source="subscription" />
        </Suspense>
      }
    />
  )
}
