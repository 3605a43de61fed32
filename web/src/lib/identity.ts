import { DEFAULT_DISTRIBUTOR_ID, STORAGE_KEYS } from '@/config'
import { readItem, removeItem, writeItem } from './storage'

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

export function getDistributorId(): string {
  return readItem('session', STORAGE_KEYS.distributorId) || DEFAULT_DISTRIBUTOR_ID
}

/**
 * Reads the `dbId` and `leadId` query parameters once at start-up.
 * dbId → sessionStorage (per tab, as in the spec); leadId → localStorage.
 */
export function captureQueryParams(search: string): void {
  const params = new URLSearchParams(search)
  const dbId = params.get('dbId')?.trim()
  if (dbId) writeItem('session', STORAGE_KEYS.distributorId, dbId)
  else if (!readItem('session', STORAGE_KEYS.distributorId)) {
    writeItem('session', STORAGE_KEYS.distributorId, DEFAULT_DISTRIBUTOR_ID)
  }
  const leadId = params.get('leadId')?.trim()
  if (leadId) writeItem('local', STORAGE_KEYS.leadId, leadId)
}
