/**
 * Session life cycle: log in (any method), restore on start, log out.
 * Runs outside React too (bootstrap, lib/api's expiry handler), so it goes
 * through appStore rather than hooks.
 */
import { appStore } from '@/app/store'
import { KEPT_ON_LOGOUT, REMEMBER_COOKIE_MAX_AGE_S, REMEMBER_EMAIL_COOKIE } from '@/config'
import { refreshCreditsAtom, resetCreditsAtom } from '@/features/credits/stores/credits'
import { resetFlowAndUploads } from '@/features/upload/stores/uploads'
import { deleteCookie, readCookie, writeCookie } from '@/lib/cookies'
import {
  clearUserSession,
  getUserToken,
  loadUserSession,
  saveUserSession,
  type UserSession,
} from '@/lib/identity'
import { logoutOnServer, type AuthResult } from './api/auth'
import { authDispatchAtom, authStateAtom } from './stores/auth'

/** Stores the session, updates the auth state and the remembered email. */
export function completeLogin(result: AuthResult, rememberMe: boolean): UserSession {
  const user: UserSession = {
    userEmail: result.user.userEmail,
    userToken: result.token,
    userName: result.user.userName ?? '',
    userId: String(result.user.userId),
  }
  saveUserSession(user)
  rememberEmail(rememberMe ? user.userEmail : null)
  appStore.set(authDispatchAtom, { type: 'LOGIN', payload: user })
  // The credit balance is refetched by the effect on the user email (RootLayout).
  return user
}

/** Updates the stored session after a profile change (e.g. a new name). */
export function updateSessionUser(patch: Partial<Pick<UserSession, 'userName' | 'userEmail'>>): void {
  const current = appStore.get(authStateAtom).user
  if (!current) return
  const user = { ...current, ...patch, userToken: getUserToken() ?? current.userToken }
  saveUserSession(user)
  appStore.set(authDispatchAtom, { type: 'LOGIN', payload: user })
}

/** On start: a stored user logs in again (spec §4). Returns whether one was found. */
export function restoreSession(): boolean {
  const user = loadUserSession()
  if (!user) {
    // Half a session (token without user, or the reverse) is no session.
    clearUserSession()
    return false
  }
  appStore.set(authDispatchAtom, { type: 'LOGIN', payload: user })
  return true
}

// ---------------------------------------------------------------------------
// Remember me: the email only, in a cookie (never the password).

export function rememberedEmail(): string {
  return readCookie(REMEMBER_EMAIL_COOKIE) ?? ''
}

export function rememberEmail(email: string | null): void {
  if (email) writeCookie(REMEMBER_EMAIL_COOKIE, email, { maxAgeSeconds: REMEMBER_COOKIE_MAX_AGE_S, secure: true, path: '/' })
  else deleteCookie(REMEMBER_EMAIL_COOKIE)
}

// ---------------------------------------------------------------------------
// Logout

function clearStorageExcept(which: 'local' | 'session', keep: readonly string[]): void {
  let store: Storage
  try {
    store = which === 'local' ? window.localStorage : window.sessionStorage
  } catch {
    return
  }
  try {
    const saved = keep.map((k) => [k, store.getItem(k)] as const)
    store.clear()
    for (const [k, v] of saved) if (v !== null) store.setItem(k, v)
  } catch {
    /* storage unavailable */
  }
}

/**
 * Logs out (spec §4): revokes the session on the server (best effort), clears
 * the in-memory state, local storage and session storage (keeping leadId,
 * the guest fingerprint and the distributor id), and goes to /login. The
 * caller passes navigate because this also runs outside components.
 */
export function logout(navigate: (to: string, opts?: { replace?: boolean }) => void): void {
  const token = getUserToken()
  // Local state first, so nothing sends the old token any more.
  clearUserSession()
  clearStorageExcept('local', KEPT_ON_LOGOUT.local)
  clearStorageExcept('session', KEPT_ON_LOGOUT.session)
  resetFlowAndUploads()
  appStore.set(resetCreditsAtom)
  appStore.set(authDispatchAtom, { type: 'LOGOUT' })
  if (token) {
    logoutOnServer(token).catch((err: unknown) => console.warn('Server logout failed:', err))
  }
  navigate('/login', { replace: true })
  // Back to a guest: a fresh guest session and its balance.
  void appStore.set(refreshCreditsAtom)
}
