import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appStore } from '@/stores/appStore'
import { resetCreateFlow } from '@/stores/flowReset'
import { addLocalFiles } from '../stores/uploads'
import { UploadPage } from './UploadPage'

// What the page does with chosen files is the store's business (its own tests); here: how they
// are chosen.
vi.mock('../stores/uploads', async (original) => ({
  ...(await original<typeof import('../stores/uploads')>()),
  addLocalFiles: vi.fn(),
}))

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <Provider store={appStore}>
        <MemoryRouter>
          <UploadPage />
        </MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  )
}

const photo = () => new File([new Uint8Array([1, 2, 3])], 'shirt.jpg', { type: 'image/jpeg' })

describe('UploadPage: choosing files', () => {
  beforeEach(() => {
    resetCreateFlow()
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"message":"Not found."}', { status: 404 })))
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
    vi.mocked(addLocalFiles).mockReset()
  })

  it('offers one tab stop, the visible button; the hidden file input is not one', async () => {
    renderPage()
    const input = screen.getByTestId('upload-input')
    expect(input.tabIndex).toBe(-1)
    expect(input.getAttribute('aria-hidden')).toBe('true')
    const button = screen.getByRole('button', { name: 'Choose files' })
    expect(button.getAttribute('aria-describedby')).toBe(screen.getByText(/JPG, PNG or WebP/).id)
    const stops: Element[] = []
    for (let i = 0; i < 12; i++) {
      await userEvent.tab()
      if (document.activeElement) stops.push(document.activeElement)
    }
    expect(stops).toContain(button)
    expect(stops).not.toContain(input)
  })

  it('the button opens the file chooser, and the chosen files are added', async () => {
    renderPage()
    const input = screen.getByTestId<HTMLInputElement>('upload-input')
    const opened = vi.spyOn(input, 'click').mockImplementation(() => {})
    await userEvent.click(screen.getByRole('button', { name: 'Choose files' }))
    expect(opened).toHaveBeenCalledOnce()
    await userEvent.upload(input, photo())
    expect(vi.mocked(addLocalFiles)).toHaveBeenCalledOnce()
    expect(vi.mocked(addLocalFiles).mock.calls[0]?.[0]).toMatchObject([{ name: 'shirt.jpg' }])
  })

  it('files dropped on the zone are added', () => {
    renderPage()
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [photo()] } })
    expect(vi.mocked(addLocalFiles)).toHaveBeenCalledOnce()
    expect(vi.mocked(addLocalFiles).mock.calls[0]?.[0]).toMatchObject([{ name: 'shirt.jpg' }])
  })
})
