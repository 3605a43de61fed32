import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toast } from '@/lib/toast'
import { TaxDetailsCard } from './TaxDetailsCard'
import { json } from '@/testing/http'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn(), clearErrors: vi.fn() }) }))

const USER = { userId: 'u1', userEmail: 'ada@example.com', userName: 'Ada', createdAt: '2026-01-05T10:00:00Z', role: 'user' }

describe('TaxDetailsCard', () => {
  const sent: unknown[] = []

  beforeEach(() => {
    sent.length = 0
    localStorage.clear()
    vi.mocked(toast.success).mockClear()
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string, init: RequestInit = {}) => {
        const url = new URL(input, 'http://app')
        if (url.pathname === '/imageedit/users/guestlogin') return Promise.resolve(json(200, { data: { token: 'g', credits: 0 } }))
        if (url.pathname === '/api/v1/user/userInfo' && init.method === 'PATCH') {
          const body = JSON.parse(String(init.body)) as { gstin: string }
          sent.push(body)
          if (body.gstin === '27AAPFU0939F1ZX') {
            return Promise.resolve(json(422, { message: "gstin: The GSTIN's last character does not match the rest; please check it for a typo." }))
          }
          return Promise.resolve(json(200, { data: { ...USER, gstin: body.gstin ? body.gstin.toUpperCase() : null } }))
        }
        return Promise.resolve(json(404, { message: 'Not found.' }))
      }),
    )
    const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <TaxDetailsCard gstin={null} />
      </QueryClientProvider>,
    )
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it("shows the server's reason on the field, then saves a good GSTIN as the server keeps it", async () => {
    const user = userEvent.setup()
    const field = screen.getByTestId('settings-gstin')
    await user.type(field, '27AAPFU0939F1ZX')
    await user.click(screen.getByTestId('settings-gstin-save'))
    const error = await screen.findByTestId('settings-gstin-error')
    expect(error.textContent).toBe("The GSTIN's last character does not match the rest; please check it for a typo.")
    expect(field.getAttribute('aria-invalid')).toBe('true')

    await user.clear(field)
    await user.type(field, '27aapfu0939f1zv')
    expect(screen.queryByTestId('settings-gstin-error')).toBeNull()
    await user.click(screen.getByTestId('settings-gstin-save'))
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Your GSTIN has been saved.'))
    expect((field as HTMLInputElement).value).toBe('27AAPFU0939F1ZV')
    expect(sent).toEqual([{ gstin: '27AAPFU0939F1ZX' }, { gstin: '27aapfu0939f1zv' }])
  })

  it('removes it when saved empty', async () => {
    const user = userEvent.setup()
    await user.click(screen.getByTestId('settings-gstin-save'))
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Your GSTIN has been removed.'))
    expect(sent).toEqual([{ gstin: '' }])
  })
})
