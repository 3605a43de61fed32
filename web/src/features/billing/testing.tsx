// Test helpers of the billing cards (not shipped: only *.test.tsx import this).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { vi } from 'vitest'
import { json } from '@/testing/http'

/**
 * Renders a billing card in a fresh query client, with fetch stubbed: the API client's guest
 * login is answered, and every other call with `{ data: answer(url) }`. Undo with
 * vi.unstubAllGlobals.
 */
export function renderWithApi(ui: ReactElement, answer: (url: URL) => unknown): void {
  localStorage.clear()
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const url = new URL(input, 'http://app')
      if (url.pathname === '/imageedit/users/guestlogin') return Promise.resolve(json(200, { data: { token: 'g', credits: 0 } }))
      return Promise.resolve(json(200, { data: answer(url) }))
    }),
  )
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>)
}
