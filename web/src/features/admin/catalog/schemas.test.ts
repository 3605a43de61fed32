import { describe, expect, it } from 'vitest'
import { MSG_FILE_REQUIRED, MSG_FILE_TYPE, MSG_ITEM_NAME, editSchema, uploadSchema } from './schemas'

const photo = (type = 'image/jpeg') => new File([new Uint8Array([1, 2, 3])], 'ava.jpg', { type })

function messages(values: unknown): Record<string, string> {
  const result = uploadSchema.safeParse(values)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]))
}

describe('uploadSchema', () => {
  it('needs a photo and a name; the category is optional', () => {
    expect(messages({ file: null, name: '  ', category: '' })).toEqual({
      file: MSG_FILE_REQUIRED,
      name: MSG_ITEM_NAME,
    })
    expect(uploadSchema.safeParse({ file: photo(), name: ' Ava ', category: '' }).success).toBe(true)
  })

  it('accepts JPEG, PNG and WebP only', () => {
    expect(messages({ file: photo('image/gif'), name: 'Ava', category: '' })).toEqual({ file: MSG_FILE_TYPE })
    expect(messages({ file: photo('application/pdf'), name: 'Ava', category: '' })).toEqual({ file: MSG_FILE_TYPE })
    for (const type of ['image/png', 'image/webp']) {
      expect(uploadSchema.safeParse({ file: photo(type), name: 'Ava', category: 'studio' }).success).toBe(true)
    }
  })

  it('limits the name and category lengths like the server', () => {
    expect(messages({ file: photo(), name: 'x'.repeat(129), category: '' })).toHaveProperty('name')
    expect(messages({ file: photo(), name: 'Ava', category: 'x'.repeat(65) })).toHaveProperty('category')
  })
})

describe('editSchema', () => {
  it('trims and needs a name', () => {
    expect(editSchema.parse({ name: ' Ava ', category: ' Studio ' })).toEqual({ name: 'Ava', category: 'Studio' })
    expect(editSchema.safeParse({ name: ' ', category: '' }).success).toBe(false)
  })
})
