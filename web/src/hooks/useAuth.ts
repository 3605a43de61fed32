import { useAtomValue, useSetAtom } from 'jotai'
import { useCallback, useMemo } from 'react'
import { authDispatchAtom, authStateAtom, type AuthState } from '@/stores/auth'

export interface AuthContextValue extends AuthState {
  setOpen: (open: boolean) => void
  /** Raises the login popup (fromPricing: the pricing page asked, spec §4 Buy Now). */
  openLoginPopup: (fromPricing?: boolean) => void
}

/** The auth "context": state plus setOpen (spec §3). */
export function useAuth(): AuthContextValue {
  const state = useAtomValue(authStateAtom)
  const dispatch = useSetAtom(authDispatchAtom)
  const setOpen = useCallback((open: boolean) => dispatch({ type: 'SETOPEN', payload: open }), [dispatch])
  const openLoginPopup = useCallback(
    (fromPricing = false) =>
      dispatch({ type: 'LOGINPOPUP', payload: { isLoginPopUp: true, isLoggedInByPricing: fromPricing } }),
    [dispatch],
  )
  return useMemo(() => ({ ...state, setOpen, openLoginPopup }), [state, setOpen, openLoginPopup])
}
