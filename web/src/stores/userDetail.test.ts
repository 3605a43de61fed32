import { createStore } from 'jotai'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { STORAGE_KEYS } from '@/config'

// The atom restores from storage when its module loads, so each test imports a fresh copy.
async function freshModule() {
  vi.resetModules()
  return import('./userDetail')
}

describe('user-detail context', () => {
  beforeEach(() => localStorage.clear())

  it('PUTDATA merges and persists under metamodel:userDetail', async () => {
    const { userDetailAtom } = await freshModule()
    const store = createStore()
    store.set(userDetailAtom, { type: 'PUTDATA', payload: { userCurrentStep: '/select-model' } })
    store.set(userDetailAtom, { type: 'PUTDATA', payload: { userIsLoggedIn: true } })
    expect(store.get(userDetailAtom)).toMatchObject({ userCurrentStep: '/select-model', userIsLoggedIn: true })
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEYS.userDetail) ?? '{}') as Record<string, unknown>
    expect(saved).toMatchObject({ userCurrentStep: '/select-model', userIsLoggedIn: true, isDataClear: false })
  })

  it('stores exactly the JSON of the state, byte for byte', async () => {
    const { userDetailAtom } = await freshModule()
    const store = createStore()
    store.set(userDetailAtom, { type: 'PUTDATA', payload: { userCurrentStep: '/generate', userCurrentData: { files: 2 } } })
    expect(localStorage.getItem(STORAGE_KEYS.userDetail)).toBe(
      '{"userCurrentStep":"/generate","userCurrentData":{"files":2},"userIsLoggedIn":false,"isDataClear":false}',
    )
  })

  it('keeps working in memory when storage is unavailable, also once subscribed', async () => {
    const { userDetailAtom } = await freshModule()
    const store = createStore()
    const unavailable = vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new Error('SecurityError')
    })
    store.set(userDetailAtom, { type: 'PUTDATA', payload: { userCurrentStep: '/select-model' } })
    const unsubscribe = store.sub(userDetailAtom, () => undefined)
    expect(store.get(userDetailAtom).userCurrentStep).toBe('/select-model')
    unsubscribe()
    unavailable.mockRestore()
    expect(localStorage.getItem(STORAGE_KEYS.userDetail)).toBeNull()
  })

  it('CLEARDATA changes nothing', async () => {
    const { userDetailAtom } = await freshModule()
    const store = createStore()
    store.set(userDetailAtom, { type: 'PUTDATA', payload: { userCurrentData: { files: 2 } } })
    const before = store.get(userDetailAtom)
    store.set(userDetailAtom, { type: 'CLEARDATA' })
    expect(store.get(userDetailAtom)).toBe(before)
  })

  it('is restored from storage on start, ignoring mistyped fields', async () => {
    localStorage.setItem(
      STORAGE_KEYS.userDetail,
      JSON.stringify({ userCurrentStep: '/generate', userIsLoggedIn: 'yes', userCurrentData: [1], isDataClear: true }),
    )
    const { userDetailAtom } = await freshModule()
    expect(createStore().get(userDetailAtom)).toEqual({
      userCurrentStep: '/generate',
      userCurrentData: null,
      userIsLoggedIn: false,
      isDataClear: true,
    })
  })

  it('starts empty when storage holds garbage', async () => {
    localStorage.setItem(STORAGE_KEYS.userDetail, '{not json')
    const { userDetailAtom, EMPTY_USER_DETAIL } = await freshModule()
    expect(createStore().get(userDetailAtom)).toEqual(EMPTY_USER_DETAIL)
  })
})
