import { DEFAULT_DISTRIBUTOR_ID, STORAGE_KEYS } from '@/config'
import { readItem, readJson, removeItem, writeItem, writeJson } from './storage'

/** crypto.randomUUID needs a secure context; fall back for plain-http LAN hosts. */
export function newUuid(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID()
  }
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export function getFingerprint(): string {
  let fp = readItem('local', STORAGE_KEYS.fingerprint)
  if (!fp) {
    fp = newUuid()
    writeItem('local', STORAGE_KEYS.fingerprint, fp)
  }
  return fp
}

export function getGuestToken(): string | null {
  return readItem('local', STORAGE_KEYS.guestToken)
}

export function setGuestToken(token: string | null): void {
  if (token) writeItem('local', STORAGE_KEYS.guestToken, token)
  else removeItem('local', STORAGE_KEYS.guestToken)
}

/**
 * Whether the guest session was started without free credits (the network had used up
 * today's free guest credits): the page then says why the balance is 0 and offers the
 * sign-up's credits instead of "Get more credits".
 */
export function guestFreeCreditsWithheld(): boolean {
  return readItem('local', STORAGE_KEYS.guestFreeWithheld) === '1'
}

export function setGuestFreeCreditsWithheld(withheld: boolean): void {
  if (withheld) writeItem('local', STORAGE_KEYS.guestFreeWithheld, '1')
  else removeItem('local', STORAGE_KEYS.guestFreeWithheld)
}

// ---------------------------------------------------------------------------
// User session (spec §3): `mm:user` holds the whole session, `mm:token` the raw
// token. The raw item is the one requests use, so a refreshed or replaced token
// wins over the copy inside `mm:user`.

export interface UserSession {
  userEmail: string
  userToken: string
  userName: string
  userId: string
}

function isUserSession(value: unknown): value is UserSession {
  if (!value || typeof value !== 'object') return false
  const v = value as Record<string, unknown>
  return (
    typeof v.userEmail === 'string' &&
    v.userEmail !== '' &&
    typeof v.userToken === 'string' &&
    typeof v.userName === 'string' &&
    typeof v.userId === 'string'
  )
}

/** The stored session, or null when there is none (or it is unreadable). */
export function loadUserSession(): UserSession | null {
  const stored = readJson<unknown>('local', STORAGE_KEYS.user)
  if (!isUserSession(stored)) return null
  const token = readItem('local', STORAGE_KEYS.token)
  return token ? { ...stored, userToken: token } : stored
}

export function saveUserSession(user: UserSession): void {
  writeJson('local', STORAGE_KEYS.user, user)
  writeItem('local', STORAGE_KEYS.token, user.userToken)
}

export function clearUserSession(): void {
  removeItem('local', STORAGE_KEYS.user)
  removeItem('local', STORAGE_KEYS.token)
}

/** The logged-in user's access token, or null for guests. */
export function getUserToken(): string | null {
  if (!readItem('local', STORAGE_KEYS.user)) return null
  return readItem('local', STORAGE_KEYS.token) || loadUserSession()?.userToken || null
}

/** Stores a refreshed access token in both places. */
export function setUserToken(token: string): void {
  const user = loadUserSession()
  if (user) saveUserSession({ ...user, userToken: token })
  else writeItem('local', STORAGE_KEYS.token, token)
}

export function getDistributorId(): string {
  return readItem('session', STORAGE_KEYS.distributorId) || DEFAULT_DISTRIBUTOR_ID
}

/**
 * The distributor a session token was issued for (its `did` claim), or null when the token
 * cannot be read. Not a check (the server verifies tokens); it tells which site a session
 * belongs to, so that every tab of the browser speaks for the same one.
 */
export function distributorOf(token: string): string | null {
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/')
    const claims: unknown = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')))
    const did = claims && typeof claims === 'object' ? (claims as Record<string, unknown>).did : null
    return typeof did === 'string' && did ? did : null
  } catch {
    return null
  }
}

/** The distributor of the session this browser holds (the user's, else the guest's), if any. */
export function sessionDistributor(): string | null {
  const token = getUserToken() ?? getGuestToken()
  return token ? distributorOf(token) : null
}

/**
 * Reads the `dbId` and `leadId` query parameters once at start-up.
 * dbId → sessionStorage (per tab, as in the spec); leadId → localStorage. A tab opened
 * without dbId (a new tab of the same browser) takes the distributor of the session the
 * browser already holds: it is the same visitor, from the same partner. A visit starts no
 * guest session, so a partner link followed before any session exists is also remembered
 * browser-wide (mm:referredBy): the guest a later tab starts is still that partner's.
 */
export function captureQueryParams(search: string): void {
  const params = new URLSearchParams(search)
  const dbId = params.get('dbId')?.trim()
  const held = sessionDistributor()
  if (dbId) {
    writeItem('session', STORAGE_KEYS.distributorId, dbId)
    if (!held) writeItem('local', STORAGE_KEYS.referredBy, dbId)
  } else if (!readItem('session', STORAGE_KEYS.distributorId)) {
    const referred = held ? null : readItem('local', STORAGE_KEYS.referredBy)
    writeItem('session', STORAGE_KEYS.distributorId, held ?? referred ?? DEFAULT_DISTRIBUTOR_ID)
  }
  const leadId = params.get('leadId')?.trim()
  if (leadId) writeItem('local', STORAGE_KEYS.leadId, leadId)
}
