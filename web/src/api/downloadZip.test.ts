import { afterEach, describe, expect, it, vi } from 'vitest'
import { downloadZip } from './downloadZip'

describe('ZIP download', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('posts the chosen ids and shows the server message when it refuses', async () => {
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      expect(JSON.parse(String(init.body))).toEqual({ taskIds: ['a', 'b'] })
      return new Response(JSON.stringify({ message: 'That image was not found.' }), {
        status: 404,
        headers: { 'Content-Type': 'application/json' },
      })
    })
    vi.stubGlobal('fetch', fetchMock)
    localStorage.setItem('mm:guestToken', 'guest-token')
    await expect(downloadZip(['a', 'b'], () => {})).rejects.toThrow('That image was not found.')
    expect(fetchMock.mock.calls[0]![0]).toBe('/imageedit/service/download')
  })
})
