import { useAtomValue, useSetAtom } from 'jotai'
import { useCallback } from 'react'
import { takeRememberedPlan } from '@/lib/pendingPlan'
import { authDispatchAtom, authStateAtom } from '@/stores/auth'

/**
 * After a login or sign-up that Buy Now asked for (isLoggedInByPricing, spec §4): lowers
 * that flag and gives the /plan-details URL to continue to. Null for any other login, so a
 * plan left over from an abandoned Buy Now is not followed.
 */
export function useTakePendingPlan(): () => string | null {
  const { isLoggedInByPricing } = useAtomValue(authStateAtom)
  const dispatch = useSetAtom(authDispatchAtom)
  return useCallback(() => {
    if (!isLoggedInByPricing) return null
    dispatch({ type: 'LOGINPOPUP', payload: { isLoginPopUp: false, isLoggedInByPricing: false } })
    return takeRememberedPlan()
  }, [isLoggedInByPricing, dispatch])
}
