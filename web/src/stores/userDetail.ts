/**
 * The user-detail context (spec §3, §4): where the user is in the product and what they
 * were doing, persisted under `metamodel:userDetail` and restored on start.
 *
 * Two actions: PUTDATA merges the given fields; CLEARDATA leaves the state as it is (the spec
 * names it but gives it no effect, so it only exists so callers can dispatch it).
 */
import { atom } from 'jotai'
import { atomWithStorage } from 'jotai/utils'
import { STORAGE_KEYS } from '@/config'
import { writeThroughJsonStorage } from '@/lib/storage'

export interface UserDetail {
  userCurrentStep: string
  userCurrentData: Record<string, unknown> | null
  userIsLoggedIn: boolean
  isDataClear: boolean
}

export type UserDetailAction = { type: 'PUTDATA'; payload: Partial<UserDetail> } | { type: 'CLEARDATA' }

export const EMPTY_USER_DETAIL: UserDetail = {
  userCurrentStep: '',
  userCurrentData: null,
  userIsLoggedIn: false,
  isDataClear: false,
}

export function userDetailReducer(state: UserDetail, action: UserDetailAction): UserDetail {
  switch (action.type) {
    case 'PUTDATA':
      return { ...state, ...action.payload }
    case 'CLEARDATA':
      return state
  }
}

/** What was stored (parsed; null when absent or unreadable), field by field, falling back to
 *  the defaults for anything missing or mistyped. */
export function restoreUserDetail(saved: unknown): UserDetail {
  const stored = saved as Partial<Record<keyof UserDetail, unknown>> | null
  if (!stored || typeof stored !== 'object') return { ...EMPTY_USER_DETAIL }
  const data = stored.userCurrentData
  return {
    userCurrentStep: typeof stored.userCurrentStep === 'string' ? stored.userCurrentStep : '',
    userCurrentData: data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null,
    userIsLoggedIn: stored.userIsLoggedIn === true,
    isDataClear: stored.isDataClear === true,
  }
}

/** Restored from localStorage on start and written back (JSON) on every change. */
const baseAtom = atomWithStorage<UserDetail>(
  STORAGE_KEYS.userDetail,
  EMPTY_USER_DETAIL,
  writeThroughJsonStorage('local', restoreUserDetail),
  { getOnInit: true },
)

export const userDetailAtom = atom(
  (get) => get(baseAtom),
  (get, set, action: UserDetailAction) => {
    const next = userDetailReducer(get(baseAtom), action)
    if (next === get(baseAtom)) return
    set(baseAtom, next)
  },
)
