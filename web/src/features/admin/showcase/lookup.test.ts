import { describe, expect, it } from 'vitest'
import { MSG_LOOKUP_BAD_EMAIL, MSG_LOOKUP_BAD_ID, MSG_LOOKUP_EMPTY, parseLookup } from './lookup'

describe('parseLookup', () => {
  it('takes anything with an "@" as an email, trimmed and lower-cased', () => {
    expect(parseLookup('  Ann@Example.COM ')).toEqual({ ok: true, lookup: { email: 'ann@example.com' } })
  })

  it('refuses an email that is not one, without guessing it is an id', () => {
    expect(parseLookup('ann@example')).toEqual({ ok: false, message: MSG_LOOKUP_BAD_EMAIL })
    expect(parseLookup('a b@example.com')).toEqual({ ok: false, message: MSG_LOOKUP_BAD_EMAIL })
  })

  it('takes anything else as a service id, exactly as typed apart from spaces around it', () => {
    expect(parseLookup(' 0f3c9a7e2b1d4c5e8f90a1b2c3d4e5f6 ')).toEqual({
      ok: true,
      lookup: { serviceId: '0f3c9a7e2b1d4c5e8f90a1b2c3d4e5f6' },
    })
    expect(parseLookup('My-Service_1')).toEqual({ ok: true, lookup: { serviceId: 'My-Service_1' } })
  })

  it('refuses an empty box and ids the server could never have made', () => {
    expect(parseLookup('   ')).toEqual({ ok: false, message: MSG_LOOKUP_EMPTY })
    expect(parseLookup('abc/def')).toEqual({ ok: false, message: MSG_LOOKUP_BAD_ID })
    expect(parseLookup('x'.repeat(65))).toEqual({ ok: false, message: MSG_LOOKUP_BAD_ID })
  })
})
