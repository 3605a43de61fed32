import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toast } from '@/lib/toast'
import { ENTERPRISE_FAILED, ENTERPRISE_SUBMITTED } from '../schema'
import { EnterpriseForm } from './EnterpriseForm'
import { json } from '@/testing/http'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }))

const input = (name: string) => screen.getByTestId(`enterprise-${name}`) as HTMLInputElement
const error = (name: string) => screen.queryByTestId(`enterprise-${name}-error`)?.textContent ?? null

describe('EnterpriseForm (spec §5, §8)', () => {
  let inquiryAnswer: () => Response
  let fetchMock: ReturnType<typeof vi.fn>
  let onSubmitted: ReturnType<typeof vi.fn<() => void>>

  beforeEach(() => {
    vi.clearAllMocks()
    localStorage.clear()
    inquiryAnswer = () => json(201, { data: { id: 3 } })
    fetchMock = vi.fn(async (url: string) => {
      if (url === '/imageedit/users/guestlogin') return json(200, { data: { token: 'guest', credits: 5 } })
      if (url === '/api/v1/inquiry') return inquiryAnswer()
      return json(404, { message: 'Not found.' })
    })
    vi.stubGlobal('fetch', fetchMock)
    onSubmitted = vi.fn<() => void>()
    const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <EnterpriseForm source="subscription" onSubmitted={onSubmitted} />
      </QueryClientProvider>,
    )
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('has the four fields and the button', () => {
    expect(screen.getByLabelText('Full Name')).toBeTruthy()
    expect(screen.getByLabelText('Email Address')).toBeTruthy()
    expect(screen.getByLabelText('Contact No.')).toBeTruthy()
    expect(screen.getByLabelText('Company Name')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Book An Appointment' })).toBeTruthy()
  })

  it('requires every field', async () => {
    await userEvent.click(screen.getByTestId('enterprise-submit'))
    for (const name of ['fullName', 'email', 'contact', 'company']) {
      expect(error(name)).toBe('This field is required')
      expect(input(name).getAttribute('aria-invalid')).toBe('true')
    }
    expect(fetchMock).not.toHaveBeenCalledWith('/api/v1/inquiry', expect.anything())
  })

  it('an error clears when its field is edited, the others stay', async () => {
    await userEvent.click(screen.getByTestId('enterprise-submit'))
    await userEvent.type(input('fullName'), 'A')
    expect(error('fullName')).toBeNull()
    expect(error('company')).toBe('This field is required')
  })

  it('Contact ignores non-digit typing and says "Only numbers are allowed"', async () => {
    await userEvent.type(input('contact'), '98a')
    expect(input('contact').value).toBe('98')
    expect(error('contact')).toBe('Only numbers are allowed')
    await userEvent.type(input('contact'), '7')
    expect(input('contact').value).toBe('987')
    expect(error('contact')).toBeNull()
    await userEvent.type(input('contact'), '+ -')
    expect(input('contact').value).toBe('987')
  })

  it('checks the email pattern', async () => {
    await userEvent.type(input('email'), 'ada@')
    await userEvent.click(screen.getByTestId('enterprise-submit'))
    expect(error('email')).toBe('Please enter correct email')
  })

  async function fillAndSend() {
    await userEvent.type(input('fullName'), 'Ada Lovelace')
    await userEvent.type(input('email'), 'Ada@Example.com')
    await userEvent.type(input('contact'), '9876543210')
    await userEvent.type(input('company'), 'Analytical Ltd')
    await userEvent.click(screen.getByTestId('enterprise-submit'))
  }

  it('201: sends the demo inquiry, toasts, clears the form and closes', async () => {
    await fillAndSend()
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(ENTERPRISE_SUBMITTED))
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/v1/inquiry')!
    expect(JSON.parse(call[1].body as string)).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      contact: '9876543210',
      organization: 'Analytical Ltd',
      identifier: 'subscription',
    })
    expect(onSubmitted).toHaveBeenCalledTimes(1)
    for (const name of ['fullName', 'email', 'contact', 'company']) expect(input(name).value).toBe('')
    expect(toast.error).not.toHaveBeenCalled()
  })

  it.each([429, 422, 500])('%i: "There was some error" and the form is kept', async (status) => {
    inquiryAnswer = () => json(status, { message: 'Nope' })
    await fillAndSend()
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ENTERPRISE_FAILED))
    expect(onSubmitted).not.toHaveBeenCalled()
    expect(input('fullName').value).toBe('Ada Lovelace')
  })
})
