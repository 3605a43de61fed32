import { describe, expect, it } from 'vitest'
import { onlyDigits } from '@/lib/validation'
import { enterpriseSchema } from './schema'

const ok = { fullName: 'Ada Lovelace', email: 'ada@example.com', contact: '4915112345678', company: 'Analytical Ltd' }

function messages(values: unknown): Record<string, string> {
  const result = enterpriseSchema.safeParse(values)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]))
}

describe('Enterprise Solutions form (spec §5)', () => {
  it('accepts a complete inquiry', () => {
    expect(enterpriseSchema.safeParse(ok).success).toBe(true)
  })

  it('requires every field with "This field is required"', () => {
    expect(messages({ fullName: '', email: '', contact: '', company: '' })).toEqual({
      fullName: 'This field is required',
      email: 'This field is required',
      contact: 'This field is required',
      company: 'This field is required',
    })
  })

  it('treats blanks as empty', () => {
    expect(messages({ ...ok, fullName: '   ', company: '\t' })).toEqual({
      fullName: 'This field is required',
      company: 'This field is required',
    })
  })

  it.each(['+49 151', '0151-123', '12a4', '1 2'])('contact %s → "Only numbers are allowed"', (contact) => {
    expect(messages({ ...ok, contact })).toEqual({ contact: 'Only numbers are allowed' })
  })

  it('checks the email pattern once it is filled', () => {
    expect(messages({ ...ok, email: 'ada@' })).toEqual({ email: 'Please enter correct email' })
  })

  it('the contact input ignores non-digit typing', () => {
    expect(onlyDigits('+49 (151) 123-45')).toBe('4915112345')
    expect(onlyDigits('abc')).toBe('')
    expect(onlyDigits('1234567', 6)).toBe('123456')
  })
})
