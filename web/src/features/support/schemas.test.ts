import { describe, expect, it } from 'vitest'
import { contactSchema, MESSAGE_MAX, topicFromQuery } from './schemas'

const valid = { name: 'Ada Lovelace', email: 'ada@example.com', topic: 'general', message: 'Hello there' }

function errors(values: Record<string, unknown>): Record<string, string> {
  const result = contactSchema.safeParse(values)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.toReversed().map((i) => [String(i.path[0]), i.message]))
}

describe('contactSchema', () => {
  it('accepts a complete message and trims it', () => {
    const parsed = contactSchema.parse({ ...valid, name: '  Ada  ', email: ' ada@example.com ', message: ' Hi ' })
    expect(parsed).toEqual({ name: 'Ada', email: 'ada@example.com', topic: 'general', message: 'Hi' })
  })

  it('says "This field is required" for every blank field', () => {
    expect(errors({ name: ' ', email: '', topic: 'general', message: '\n' })).toEqual({
      name: 'This field is required',
      email: 'This field is required',
      message: 'This field is required',
    })
  })

  it('says "Please enter correct email" for a malformed address', () => {
    expect(errors({ ...valid, email: 'ada@example' })).toEqual({ email: 'Please enter correct email' })
    expect(errors({ ...valid, email: 'ada @example.com' })).toEqual({ email: 'Please enter correct email' })
  })

  it('refuses an unknown topic and a message longer than the server takes', () => {
    expect(errors({ ...valid, topic: 'sales' })).toHaveProperty('topic')
    expect(errors({ ...valid, message: 'x'.repeat(MESSAGE_MAX + 1) })).toEqual({
      message: `Please keep the message under ${MESSAGE_MAX} characters.`,
    })
    expect(errors({ ...valid, message: 'x'.repeat(MESSAGE_MAX) })).toEqual({})
  })
})

describe('topicFromQuery', () => {
  it('preselects a known topic and falls back to general', () => {
    expect(topicFromQuery('appointment')).toBe('appointment')
    expect(topicFromQuery('billing')).toBe('billing')
    expect(topicFromQuery('Appointment')).toBe('general')
    expect(topicFromQuery(null)).toBe('general')
  })
})
