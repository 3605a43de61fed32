import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { LoadingBlock } from '@/components/ui/Spinner'
import { SubscriptionPage } from '@/features/pricing/components/SubscriptionPage'

// The Enterprise Solutions form (react-hook-form and zod, 35 KB compressed) is its own chunk,
// fetched when the block that holds it is placed (below the plans, once they have come): the
// page renders as soon as its own code is in. Fetched with the page, it was part of what a
// phone waited for before the first paint (issue 39).
const EnterpriseForm = lazy(() =>
  import('@/features/enterprise/components/EnterpriseForm').then((m) => ({ default: m.EnterpriseForm })),
)

// How near the viewport the block may come before its form is fetched (a scroll's worth ahead).
const NEAR_MARGIN = '400px'

/** Calls `then` once the page has loaded and the browser is next idle. Returns a cancel. */
function afterLoadWhenIdle(then: () => void): () => void {
  let cancelIdle = () => {}
  const idle = () => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(then, { timeout: 2000 })
      cancelIdle = () => window.cancelIdleCallback(id)
    } else {
      const id = window.setTimeout(then, 200)
      cancelIdle = () => window.clearTimeout(id)
    }
  }
  if (document.readyState === 'complete') {
    idle()
    return () => cancelIdle()
  }
  window.addEventListener('load', idle, { once: true })
  return () => {
    window.removeEventListener('load', idle)
    cancelIdle()
  }
}

/**
 * The form, placed when its block comes near the viewport or the browser is idle after the
 * page has loaded, whichever is first: evaluated with the plans' render, its code (zod's
 * schemas, react-hook-form) made that task one of the page's longest on a phone (issue 39).
 */
function DeferredEnterpriseForm() {
  const [wanted, setWanted] = useState(false)
  const placeholder = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (wanted) return
    const want = () => setWanted(true)
    const cancel = afterLoadWhenIdle(want)
    const element = placeholder.current
    let observer: IntersectionObserver | undefined
    if (element && typeof IntersectionObserver === 'function') {
      observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && want(), {
        rootMargin: NEAR_MARGIN,
      })
      observer.observe(element)
    }
    return () => {
      cancel()
      observer?.disconnect()
    }
  }, [wanted])
  const loading = <LoadingBlock label="Loading the form…" />
  if (!wanted) return <div ref={placeholder}>{loading}</div>
  return (
    <Suspense fallback={loading}>
      <EnterpriseForm source="subscription" />
    </Suspense>
  )
}

/** /subscription: the pricing page with the enterprise feature's form. */
export function SubscriptionRoute() {
  return <SubscriptionPage enterpriseForm={<DeferredEnterpriseForm />} />
}
