import { atom } from 'jotai'
import { getUserToken, saveUserSession, type UserSession } from '@/lib/identity'
import { appStore } from './appStore'

/**
 * Auth state (spec §3, §4). A reducer kept in a jotai atom so route loaders,
 * the session life cycle and components share one copy through appStore.
 *
 *  - LOGIN sets the user and isAuthenticated.
 *  - LOGOUT clears the user, isAuthenticated, and the popup, pricing-login and open flags.
 *  - LOGINPOPUP raises (or lowers) the login popup flag and the pricing-login flag.
 *  - SETOPEN opens or closes the login modal (the context's setOpen).
 */
export interface AuthState {
  user: UserSession | null
  isAuthenticated: boolean
  /** Someone asked for the login modal (e.g. a Login button, Buy Now). */
  isLoginPopUp: boolean
  /** The popup was raised from the pricing page; after login the plan continues. */
  isLoggedInByPricing: boolean
  /** The login modal is open. */
  open: boolean
}

export type AuthAction =
  | { type: 'LOGIN'; payload: UserSession }
  | { type: 'LOGOUT' }
  | { type: 'LOGINPOPUP'; payload: { isLoginPopUp: boolean; isLoggedInByPricing?: boolean } }
  | { type: 'SETOPEN'; payload: boolean }

export const initialAuthState: AuthState = {
  user: null,
  isAuthenticated: false,
  isLoginPopUp: false,
  isLoggedInByPricing: false,
  open: false,
}

export function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'LOGIN':
      // A successful login also closes the modal (spec §4).
      return { ...state, user: action.payload, isAuthenticated: true, isLoginPopUp: false, open: false }
    case 'LOGOUT':
      return { ...initialAuthState }
    case 'LOGINPOPUP':
      return {
        ...state,
        isLoginPopUp: action.payload.isLoginPopUp,
        isLoggedInByPricing: action.payload.isLoggedInByPricing ?? false,
        open: action.payload.isLoginPopUp ? state.open : false,
      }
    case 'SETOPEN':
      return { ...state, open: action.payload, isLoginPopUp: action.payload ? state.isLoginPopUp : false }
  }
}

export const authStateAtom = atom<AuthState>(initialAuthState)

export const authDispatchAtom = atom(null, (get, set, action: AuthAction) => {
  set(authStateAtom, authReducer(get(authStateAtom), action))
})

export const isAuthenticatedAtom = atom((get) => get(authStateAtom).isAuthenticated)
export const userAtom = atom((get) => get(authStateAtom).user)

/** The modal shows while it is asked for and nobody is logged in (spec §2). */
export const loginModalVisibleAtom = atom((get) => {
  const s = get(authStateAtom)
  return (s.isLoginPopUp || s.open) && !s.user?.userEmail
})

/** Updates the stored session after a profile change (e.g. a new name). */
export function updateSessionUser(patch: Partial<Pick<UserSession, 'userName' | 'userEmail'>>): void {
  const current = appStore.get(authStateAtom).user
  if (!current) return
  const user = { ...current, ...patch, userToken: getUserToken() ?? current.userToken }
  saveUserSession(user)
  appStore.set(authDispatchAtom, { type: 'LOGIN', payload: user })
}
