import { describe, expect, it } from 'vitest'
import { codeStepSchema, emailStepSchema, loginSchema, passwordStepSchema } from './schemas'

/** The message of each failing path, e.g. { email: 'Please enter correct email' }. */
function problems(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  if (result.success) return {}
  return Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]))
}

describe('login schema (spec §5)', () => {
  const ok = { email: 'ada@example.com', password: 'secret-42', rememberMe: true }

  it('accepts an email and a password', () => {
    expect(loginSchema.safeParse(ok).success).toBe(true)
  })

  it.each([
    ['both blank', { ...ok, email: '', password: '' }],
    ['email blank', { ...ok, email: '' }],
    ['password blank', { ...ok, password: '' }],
    ['password only spaces', { ...ok, password: '   ' }],
    ['email only spaces', { ...ok, email: '  ' }],
  ])('%s → "Please enter all the value" for the form', (_, values) => {
    expect(problems(loginSchema.safeParse(values))).toEqual({ root: 'Please enter all the value' })
  })

  it.each(['not an@email', 'ada@example', 'ada@@example.com', 'ada.example.com', 'a da@example.com', 'ada@example.'])(
    '%s → inline "Please enter correct email"',
    (email) => {
      expect(problems(loginSchema.safeParse({ ...ok, email }))).toEqual({ email: 'Please enter correct email' })
    },
  )

  it('checks the email pattern on the trimmed value', () => {
    expect(loginSchema.safeParse({ ...ok, email: '  Ada@Example.com ' }).success).toBe(true)
  })
})

describe('sign-up and reset steps', () => {
  it('email step: the pattern, with the spec message', () => {
    expect(problems(emailStepSchema.safeParse({ email: 'nope' }))).toEqual({ email: 'Please enter correct email' })
    expect(emailStepSchema.parse({ email: ' ada@example.com ' })).toEqual({ email: 'ada@example.com' })
  })

  it('code step: exactly six digits', () => {
    expect(codeStepSchema.safeParse({ otp: '123456' }).success).toBe(true)
    for (const otp of ['12345', '1234567', '12a456', '']) {
      expect(problems(codeStepSchema.safeParse({ otp }))).toEqual({ otp: 'Enter the 6-digit code from the email.' })
    }
  })

  it('sign-up details: a name and a password of 8 to 128 characters', () => {
    const schema = passwordStepSchema({ withName: true })
    const base = { name: 'Ada', password: 'correct-horse', confirm: '', rememberMe: true }
    expect(schema.safeParse(base).success).toBe(true)
    expect(problems(schema.safeParse({ ...base, name: '  ' }))).toEqual({ name: 'Please enter your name.' })
    expect(problems(schema.safeParse({ ...base, password: 'short' }))).toEqual({
      password: 'Password must be 8 to 128 characters.',
    })
    expect(problems(schema.safeParse({ ...base, password: 'x'.repeat(129) }))).toEqual({
      password: 'Password must be 8 to 128 characters.',
    })
    expect(schema.safeParse({ ...base, password: 'x'.repeat(128) }).success).toBe(true)
  })

  it('reset: the confirmation must match, reported only once the password itself is fine', () => {
    const schema = passwordStepSchema({ withConfirm: true })
    const base = { name: '', password: 'correct-horse', confirm: 'correct-horse', rememberMe: false }
    expect(schema.safeParse(base).success).toBe(true)
    expect(problems(schema.safeParse({ ...base, confirm: 'correct-horsE' }))).toEqual({
      confirm: 'The passwords do not match.',
    })
    expect(problems(schema.safeParse({ ...base, password: 'short', confirm: 'other' }))).toEqual({
      password: 'Password must be 8 to 128 characters.',
    })
  })

  it('without withConfirm the confirmation is ignored', () => {
    const schema = passwordStepSchema({ withName: true })
    expect(schema.safeParse({ name: 'Ada', password: 'correct-horse', confirm: 'x', rememberMe: true }).success).toBe(true)
  })
})
