import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FeedbackControl } from './FeedbackControl'
import { json } from '@/testing/http'

function renderControl(props: { rating: 'up' | 'down' | null; comment: string }) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <FeedbackControl imageId="task-1" imageLabel="image 1" {...props} />
    </QueryClientProvider>,
  )
}

describe('FeedbackControl', () => {
  let fetchMock: ReturnType<typeof vi.fn>
  const sent = () => fetchMock.mock.calls.map(([, init]) => JSON.parse(String((init as RequestInit).body)) as unknown)

  beforeEach(() => {
    localStorage.setItem('mm:guestToken', 'guest-token')
    fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { taskId: string; rating: string; comment: string }
      return json(200, { data: body })
    })
    vi.stubGlobal('fetch', fetchMock)
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('shows the current feedback from the server', () => {
    renderControl({ rating: 'down', comment: 'too dark' })
    expect(screen.getByTestId('feedback-down').getAttribute('aria-pressed')).toBe('true')
    expect(screen.getByTestId('feedback-up').getAttribute('aria-pressed')).toBe('false')
    expect(screen.getByTestId('feedback-comment').textContent).toContain('too dark')
    expect(screen.getByTestId('feedback-comment-edit').textContent).toBe('Edit comment')
  })

  it('a thumb sends the rating at once and keeps the comment; a comment needs a rating first', async () => {
    renderControl({ rating: null, comment: '' })
    expect((screen.getByTestId('feedback-comment-edit') as HTMLButtonElement).disabled).toBe(true)

    await userEvent.click(screen.getByTestId('feedback-up'))
    await waitFor(() => expect(screen.getByTestId('feedback-up').getAttribute('aria-pressed')).toBe('true'))
    expect(fetchMock.mock.calls[0]![0]).toBe('/imageedit/service/feedback')
    expect(sent()).toEqual([{ taskId: 'task-1', rating: 'up', comment: '' }])

    await userEvent.click(screen.getByTestId('feedback-comment-edit'))
    await userEvent.type(screen.getByTestId('feedback-comment-input'), '  lovely light  ')
    await userEvent.click(screen.getByTestId('feedback-save'))
    await waitFor(() => expect(screen.getByTestId('feedback-comment').textContent).toContain('lovely light'))
    expect(sent()[1]).toEqual({ taskId: 'task-1', rating: 'up', comment: 'lovely light' })
    expect(screen.queryByTestId('feedback-comment-input')).toBeNull()
  })

  it('edits existing feedback: changing the thumb keeps the comment, editing starts from it', async () => {
    renderControl({ rating: 'up', comment: 'nice' })
    await userEvent.click(screen.getByTestId('feedback-down'))
    await waitFor(() => expect(screen.getByTestId('feedback-down').getAttribute('aria-pressed')).toBe('true'))
    expect(sent()[0]).toEqual({ taskId: 'task-1', rating: 'down', comment: 'nice' })

    await userEvent.click(screen.getByTestId('feedback-comment-edit'))
    expect((screen.getByTestId('feedback-comment-input') as HTMLTextAreaElement).value).toBe('nice')
  })

  it('a thumb saved after the comment form opened leaves the form open', async () => {
    let answer: (r: Response) => void = () => {}
    fetchMock.mockImplementationOnce(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((resolve) => {
          answer = resolve
          void init
        }),
    )
    renderControl({ rating: 'up', comment: '' })
    await userEvent.click(screen.getByTestId('feedback-down')) // slow to answer
    await userEvent.click(screen.getByTestId('feedback-comment-edit'))
    await userEvent.type(screen.getByTestId('feedback-comment-input'), 'half-written')
    answer(json(200, { data: { taskId: 'task-1', rating: 'down', comment: '' } }))
    await waitFor(() => expect(screen.getByTestId('feedback-down').getAttribute('aria-pressed')).toBe('true'))
    expect((screen.getByTestId('feedback-comment-input') as HTMLTextAreaElement).value).toBe('half-written')
  })

  it("shows the server's message when the feedback is refused, and the previous feedback stays", async () => {
    fetchMock.mockResolvedValueOnce(json(404, { message: 'That image was not found.' }))
    renderControl({ rating: 'up', comment: '' })
    await userEvent.click(screen.getByTestId('feedback-down'))
    expect((await screen.findByTestId('feedback-error')).textContent).toBe('That image was not found.')
    expect(screen.getByTestId('feedback-up').getAttribute('aria-pressed')).toBe('true')
  })
})
