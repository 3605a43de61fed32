import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api'
import { downloadInvoice } from './downloadInvoice'

const saved = vi.hoisted(() => vi.fn())
vi.mock('@/lib/download', () => ({ saveBlob: saved }))

describe('downloadInvoice', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    saved.mockReset()
    localStorage.clear()
  })

  it('fetches the PDF with the session token and saves it under the server’s name', async () => {
    localStorage.setItem('mm:guestToken', 'guest-token')
    const fetchMock = vi.fn(
      async () =>
        new Response(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), {
          status: 200,
          headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="INV-20260115-ABC.pdf"' },
        }),
    )
    vi.stubGlobal('fetch', fetchMock)
    await expect(downloadInvoice('/api/v1/payment/invoice/abc', 'abc')).resolves.toBe('INV-20260115-ABC.pdf')
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/api/v1/payment/invoice/abc')
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer guest-token')
    expect(saved).toHaveBeenCalledTimes(1)
    expect(saved.mock.calls[0]![1]).toBe('INV-20260115-ABC.pdf')
  })

  it('shows the server’s message when there is no invoice', async () => {
    localStorage.setItem('mm:guestToken', 'guest-token')
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ message: 'That invoice was not found.' }), { status: 404 })),
    )
    const failure = downloadInvoice('/api/v1/payment/invoice/x', 'x')
    await expect(failure).rejects.toBeInstanceOf(ApiError)
    await expect(failure).rejects.toThrow('That invoice was not found.')
    expect(saved).not.toHaveBeenCalled()
  })
})
