import { createStore } from 'jotai'
import { describe, expect, it } from 'vitest'
import type { UserSession } from '@/lib/identity'
import {
  authDispatchAtom,
  authReducer,
  authStateAtom,
  initialAuthState,
  loginModalVisibleAtom,
  type AuthState,
} from './auth'

const user: UserSession = { userEmail: 'ada@example.com', userToken: 'tok', userName: 'Ada', userId: '7' }

describe('auth reducer', () => {
  it('LOGIN sets the user and isAuthenticated, and closes the popup', () => {
    const asked: AuthState = { ...initialAuthState, isLoginPopUp: true, open: true }
    const next = authReducer(asked, { type: 'LOGIN', payload: user })
    expect(next.user).toEqual(user)
    expect(next.isAuthenticated).toBe(true)
    expect(next.isLoginPopUp).toBe(false)
    expect(next.open).toBe(false)
  })

  it('LOGOUT clears the user and resets the popup, pricing-login and open flags', () => {
    const busy: AuthState = { user, isAuthenticated: true, isLoginPopUp: true, isLoggedInByPricing: true, open: true }
    expect(authReducer(busy, { type: 'LOGOUT' })).toEqual({
      user: null,
      isAuthenticated: false,
      isLoginPopUp: false,
      isLoggedInByPricing: false,
      open: false,
    })
  })

  it('LOGINPOPUP sets the popup flag and the pricing-login flag', () => {
    const fromPricing = authReducer(initialAuthState, {
      type: 'LOGINPOPUP',
      payload: { isLoginPopUp: true, isLoggedInByPricing: true },
    })
    expect(fromPricing.isLoginPopUp).toBe(true)
    expect(fromPricing.isLoggedInByPricing).toBe(true)

    const plain = authReducer(fromPricing, { type: 'LOGINPOPUP', payload: { isLoginPopUp: true } })
    expect(plain.isLoggedInByPricing).toBe(false)

    const lowered = authReducer({ ...plain, open: true }, { type: 'LOGINPOPUP', payload: { isLoginPopUp: false } })
    expect(lowered.isLoginPopUp).toBe(false)
    expect(lowered.open).toBe(false)
  })

  it('SETOPEN(false) also lowers the popup flag; SETOPEN(true) keeps it', () => {
    const asked = authReducer(initialAuthState, { type: 'LOGINPOPUP', payload: { isLoginPopUp: true } })
    expect(authReducer(asked, { type: 'SETOPEN', payload: true })).toMatchObject({ open: true, isLoginPopUp: true })
    expect(authReducer(asked, { type: 'SETOPEN', payload: false })).toMatchObject({ open: false, isLoginPopUp: false })
  })

  it('does not change the state it was given', () => {
    const before = { ...initialAuthState }
    authReducer(initialAuthState, { type: 'LOGIN', payload: user })
    expect(initialAuthState).toEqual(before)
  })
})

describe('login modal visibility', () => {
  it('shows while asked for and nobody is logged in, and hides after LOGIN', () => {
    const store = createStore()
    expect(store.get(loginModalVisibleAtom)).toBe(false)
    store.set(authDispatchAtom, { type: 'LOGINPOPUP', payload: { isLoginPopUp: true } })
    expect(store.get(loginModalVisibleAtom)).toBe(true)
    store.set(authDispatchAtom, { type: 'LOGIN', payload: user })
    expect(store.get(loginModalVisibleAtom)).toBe(false)
    expect(store.get(authStateAtom).isAuthenticated).toBe(true)
  })

  it('stays hidden when a user email is known even if the popup is raised', () => {
    const store = createStore()
    store.set(authStateAtom, { ...initialAuthState, user, isAuthenticated: true, isLoginPopUp: true })
    expect(store.get(loginModalVisibleAtom)).toBe(false)
  })
})
