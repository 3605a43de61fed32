import { describe, expect, it } from 'vitest'
import {
  MSG_CHOOSE_LISTED,
  MSG_DESCRIPTION_LONG,
  MSG_FILE_REQUIRED,
  MSG_FILE_TYPE,
  MSG_ITEM_NAME,
  NO_ATTRIBUTES,
  editSchema,
  uploadSchema,
} from './schemas'

const photo = (type = 'image/jpeg') => new File([new Uint8Array([1, 2, 3])], 'ava.jpg', { type })

function messages(values: Record<string, unknown>): Record<string, string> {
  const result = uploadSchema.safeParse({ ...NO_ATTRIBUTES, ...values })
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]))
}

describe('uploadSchema', () => {
  it('needs a photo and a name; the category, description and attributes are optional', () => {
    expect(messages({ file: null, name: '  ', category: '' })).toEqual({
      file: MSG_FILE_REQUIRED,
      name: MSG_ITEM_NAME,
    })
    expect(uploadSchema.safeParse({ file: photo(), name: ' Ava ', category: '', ...NO_ATTRIBUTES }).success).toBe(true)
  })

  it('accepts JPEG, PNG and WebP only', () => {
    expect(messages({ file: photo('image/gif'), name: 'Ava', category: '' })).toEqual({ file: MSG_FILE_TYPE })
    expect(messages({ file: photo('application/pdf'), name: 'Ava', category: '' })).toEqual({ file: MSG_FILE_TYPE })
    for (const type of ['image/png', 'image/webp']) {
      expect(messages({ file: photo(type), name: 'Ava', category: 'studio' })).toEqual({})
    }
  })

  it('limits the name, category and description lengths like the server', () => {
    expect(messages({ file: photo(), name: 'x'.repeat(129), category: '' })).toHaveProperty('name')
    expect(messages({ file: photo(), name: 'Ava', category: 'x'.repeat(65) })).toHaveProperty('category')
    expect(messages({ file: photo(), name: 'Ava', category: '', description: 'x'.repeat(281) })).toEqual({
      description: MSG_DESCRIPTION_LONG,
    })
    // Spaces around it do not count.
    expect(messages({ file: photo(), name: 'Ava', category: '', description: ` ${'x'.repeat(280)} ` })).toEqual({})
  })

  it('takes a gender, skin tone and body type among the listed values, or none', () => {
    const base = { file: photo(), name: 'Ava', category: '' }
    expect(messages({ ...base, gender: 'female', skinTone: 'deep', bodyType: 'plus' })).toEqual({})
    expect(messages({ ...base, gender: 'other', skinTone: 'olive', bodyType: 'tall' })).toEqual({
      gender: MSG_CHOOSE_LISTED,
      skinTone: MSG_CHOOSE_LISTED,
      bodyType: MSG_CHOOSE_LISTED,
    })
  })
})

describe('editSchema', () => {
  it('trims and needs a name', () => {
    expect(editSchema.parse({ name: ' Ava ', category: ' Studio ', ...NO_ATTRIBUTES, description: ' Tall ' })).toEqual({
      name: 'Ava',
      category: 'Studio',
      description: 'Tall',
      gender: '',
      skinTone: '',
      bodyType: '',
    })
    expect(editSchema.safeParse({ name: ' ', category: '', ...NO_ATTRIBUTES }).success).toBe(false)
  })
})
