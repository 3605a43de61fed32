import { atom } from 'jotai'

/**
 * Accounts are not built yet: everyone is a guest with a guest token. The
 * sidebar already filters entries on this flag so logging in can be added later
 * without touching the layout.
 */
export const isAuthenticatedAtom = atom(false)
