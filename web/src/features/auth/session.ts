/**
 * Session life cycle: log in (any method), restore on start, log out.
 * Runs outside React too (bootstrap, the query client's expiry handling), so it
 * goes through appStore and the shared query client rather than hooks.
 */
import { KEPT_ON_LOGOUT, REMEMBER_COOKIE_MAX_AGE_S, REMEMBER_EMAIL_COOKIE } from '@/config'
import { deleteCookie, readCookie, writeCookie } from '@/lib/cookies'
import { clearUserSession, getUserToken, loadUserSession, saveUserSession, type UserSession } from '@/lib/identity'
import { queryClient } from '@/lib/queryClient'
import { appStore } from '@/stores/appStore'
import { authDispatchAtom } from '@/stores/auth'
import { resetCreateFlow } from '@/stores/flowReset'
import type { AuthResult } from '@/types/api'
import { logoutOnServer } from './api/logoutOnServer'

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
  // The credit balance is keyed by the user's email: the sidebar fetches the account's now.
  appStore.set(authDispatchAtom, { type: 'LOGIN', payload: user })
  return user
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

export type Navigate = (to: string, opts?: { replace?: boolean }) => unknown

/**
 * Logs out (spec §4): revokes the session on the server (best effort), clears the
 * queries, the in-memory state, local storage and session storage (keeping leadId,
 * the guest fingerprint and the distributor id), and goes to /login. The caller
 * passes navigate because this also runs outside components.
 */
export function logout(navigate: Navigate): void {
  const token = getUserToken()
  // Local state first, so nothing sends the old token any more.
  clearUserSession()
  clearStorageExcept('local', KEPT_ON_LOGOUT.local)
  clearStorageExcept('session', KEPT_ON_LOGOUT.session)
  resetCreateFlow()
  queryClient.cancelQueries().catch(() => undefined)
  queryClient.clear()
  appStore.set(authDispatchAtom, { type: 'LOGOUT' })
  if (token) {
    logoutOnServer(token).catch((err: unknown) => console.warn('Server logout failed:', err))
  }
  // Back to a guest: the sidebar's credit query now asks for a guest balance.
  void navigate('/login', { replace: true })
}
