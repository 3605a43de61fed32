import { beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_DISTRIBUTOR_ID } from '@/config'
import { captureQueryParams, clearUserSession, distributorOf, getDistributorId, saveUserSession, setGuestToken } from './identity'

/** A token shaped like the server's (header.claims.signature, base64url, no padding). */
function tokenFor(claims: Record<string, unknown>): string {
  const body = btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
  return `eyJhbGciOiJIUzI1NiJ9.${body}.c2ln`
}

describe('which distributor a tab speaks for', () => {
  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
    clearUserSession()
  })

  it('reads the distributor a token was issued for, and nothing from junk', () => {
    expect(distributorOf(tokenFor({ sub: 'a', did: 'DIST9' }))).toBe('DIST9')
    expect(distributorOf(tokenFor({ sub: 'a', did: 42 }))).toBeNull()
    expect(distributorOf(tokenFor({ sub: 'a' }))).toBeNull()
    expect(distributorOf('not-a-token')).toBeNull()
    expect(distributorOf('a.%%%.c')).toBeNull()
    expect(distributorOf('')).toBeNull()
  })

  it("takes a partner link's dbId in the tab that followed it", () => {
    setGuestToken(tokenFor({ sub: 'a', did: 'DIST9' }))
    captureQueryParams('?dbId=DIST7')
    expect(getDistributorId()).toBe('DIST7')
  })

  it("gives a second tab without dbId the distributor of the guest's session", () => {
    setGuestToken(tokenFor({ sub: 'a', did: 'DIST9' }))
    captureQueryParams('')
    expect(getDistributorId()).toBe('DIST9')
  })

  it("prefers the signed-in user's session to a guest token left behind", () => {
    setGuestToken(tokenFor({ sub: 'g', did: 'DIST9' }))
    saveUserSession({ userEmail: 'a@b.co', userToken: tokenFor({ sub: 'u', did: 'DIST3' }), userName: 'A', userId: 'u' })
    captureQueryParams('?leadId=x')
    expect(getDistributorId()).toBe('DIST3')
  })

  it("gives a second tab the partner whose link an earlier tab followed before any session", () => {
    captureQueryParams('?dbId=DIST9')
    sessionStorage.clear() // a new tab: its own sessionStorage, the same localStorage
    captureQueryParams('')
    expect(getDistributorId()).toBe('DIST9')
  })

  it("lets a held session's partner win over a link remembered before it", () => {
    captureQueryParams('?dbId=DIST9')
    setGuestToken(tokenFor({ sub: 'a', did: 'DIST3' }))
    sessionStorage.clear()
    captureQueryParams('')
    expect(getDistributorId()).toBe('DIST3')
  })

  it('falls back to the default with no session and no link', () => {
    captureQueryParams('')
    expect(getDistributorId()).toBe(DEFAULT_DISTRIBUTOR_ID)
  })
})
