import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { clearUserSession, saveUserSession } from '@/lib/identity'
import { toast } from '@/lib/toast'
import { UploadForm } from './UploadForm'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }))

const REFUSAL = 'No person found in this photo. A digital model photo must show one person.'

function renderForm(kind: 'model' | 'background' = 'model') {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <UploadForm kind={kind} categories={['studio']} />
    </QueryClientProvider>,
  )
}

const photo = (type = 'image/jpeg') => new File([new Uint8Array([255, 216, 255])], 'ava.jpg', { type })

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

describe('UploadForm', () => {
  let fetchMock: ReturnType<typeof vi.fn>

  beforeEach(() => {
    fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    saveUserSession({ userEmail: 'ops@example.com', userToken: 'token-1', userName: 'Ops', userId: 'u1' })
  })

  afterEach(() => {
    cleanup()
    clearUserSession()
    vi.unstubAllGlobals()
  })

  it('asks for a photo and a name before calling the server', async () => {
    renderForm()
    await userEvent.click(screen.getByTestId('catalog-upload-submit'))
    expect(screen.getByTestId('catalog-upload-file-error').textContent).toBe('Choose a photo to upload.')
    expect(screen.getByTestId('catalog-upload-name-error').textContent).toBe('Give it a name.')
    expect(fetchMock).not.toHaveBeenCalled()

    // Editing a field clears its message.
    await userEvent.type(screen.getByTestId('catalog-upload-name'), 'Ava')
    expect(screen.queryByTestId('catalog-upload-name-error')).toBeNull()
  })

  it('refuses a file that is not a JPEG, PNG or WebP', async () => {
    renderForm()
    await userEvent.upload(screen.getByTestId('catalog-upload-file'), photo('image/gif'), { applyAccept: false })
    await userEvent.type(screen.getByTestId('catalog-upload-name'), 'Ava')
    await userEvent.click(screen.getByTestId('catalog-upload-submit'))
    expect(screen.getByTestId('catalog-upload-file-error').textContent).toBe('Use a JPEG, PNG or WebP photo.')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("sends the photo with its name, category and kind, and shows the server's refusal as it is", async () => {
    fetchMock.mockResolvedValue(answer(422, { message: REFUSAL }))
    renderForm()
    await userEvent.upload(screen.getByTestId('catalog-upload-file'), photo())
    await userEvent.type(screen.getByTestId('catalog-upload-name'), ' Ava ')
    await userEvent.type(screen.getByTestId('catalog-upload-category'), 'studio')
    await userEvent.click(screen.getByTestId('catalog-upload-submit'))

    expect((await screen.findByTestId('catalog-upload-refusal')).textContent).toContain(REFUSAL)
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/v1/admin/catalog')
    expect(init.method).toBe('POST')
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer token-1')
    const form = init.body as FormData
    expect(form.get('kind')).toBe('model')
    expect(form.get('name')).toBe('Ava')
    expect(form.get('category')).toBe('studio')
    expect((form.get('file') as File).name).toBe('ava.jpg')
    expect(toast.success).not.toHaveBeenCalled()
  })

  it('clears the form after an upload', async () => {
    fetchMock.mockResolvedValue(
      answer(200, { data: { _id: 'model-1', name: 'Ava', category: 'studio', published: false } }),
    )
    renderForm()
    await userEvent.upload(screen.getByTestId('catalog-upload-file'), photo())
    await userEvent.type(screen.getByTestId('catalog-upload-name'), 'Ava')
    await userEvent.click(screen.getByTestId('catalog-upload-submit'))
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('"Ava" was added. Publish it when it is ready.'))
    expect((screen.getByTestId('catalog-upload-name') as HTMLInputElement).value).toBe('')
    expect(screen.queryByTestId('catalog-upload-refusal')).toBeNull()
  })

  it("sends a model's description, gender, skin tone and body type", async () => {
    fetchMock.mockResolvedValue(answer(200, { data: { _id: 'model-9', name: 'Ava', category: 'studio', published: false } }))
    renderForm()
    await userEvent.upload(screen.getByTestId('catalog-upload-file'), photo())
    await userEvent.type(screen.getByTestId('catalog-upload-name'), 'Ava')
    await userEvent.type(screen.getByTestId('catalog-upload-description'), ' Slim build · fair skin ')
    await userEvent.selectOptions(screen.getByTestId('catalog-upload-gender'), 'Female')
    await userEvent.selectOptions(screen.getByTestId('catalog-upload-skinTone'), 'Fair')
    await userEvent.selectOptions(screen.getByTestId('catalog-upload-bodyType'), 'Plus size')
    await userEvent.click(screen.getByTestId('catalog-upload-submit'))

    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce())
    const form = (fetchMock.mock.calls[0] as [string, RequestInit])[1].body as FormData
    expect(form.get('description')).toBe('Slim build · fair skin')
    expect(form.get('gender')).toBe('female')
    expect(form.get('skinTone')).toBe('fair')
    expect(form.get('bodyType')).toBe('plus')
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalled())
    expect((screen.getByTestId('catalog-upload-gender') as HTMLSelectElement).value).toBe('')
  })

  it('offers "Not set" and sends no attribute left unset', async () => {
    fetchMock.mockResolvedValue(answer(200, { data: { _id: 'model-9', name: 'Ava', category: '', published: false } }))
    renderForm()
    const gender = screen.getByTestId('catalog-upload-gender') as HTMLSelectElement
    expect(within(gender).getAllByRole('option').map((o) => o.textContent)).toEqual(['Not set', 'Female', 'Male'])
    await userEvent.upload(screen.getByTestId('catalog-upload-file'), photo())
    await userEvent.type(screen.getByTestId('catalog-upload-name'), 'Ava')
    await userEvent.selectOptions(screen.getByTestId('catalog-upload-skinTone'), 'Deep')
    await userEvent.click(screen.getByTestId('catalog-upload-submit'))
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce())
    const form = (fetchMock.mock.calls[0] as [string, RequestInit])[1].body as FormData
    expect(form.get('skinTone')).toBe('deep')
    expect(form.has('gender')).toBe(false)
    expect(form.has('bodyType')).toBe(false)
    expect(form.get('description')).toBe('')
  })

  it('refuses a description over 280 characters, saying so', async () => {
    renderForm()
    await userEvent.upload(screen.getByTestId('catalog-upload-file'), photo())
    await userEvent.type(screen.getByTestId('catalog-upload-name'), 'Ava')
    await userEvent.click(screen.getByTestId('catalog-upload-description'))
    await userEvent.paste('x'.repeat(281))
    expect(screen.getByText(/281\/280/)).toBeTruthy()
    await userEvent.click(screen.getByTestId('catalog-upload-submit'))
    expect(screen.getByTestId('catalog-upload-description-error').textContent).toBe(
      'Keep the description to 280 characters or fewer.',
    )
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('for a background: a category and description, no model attributes', async () => {
    fetchMock.mockResolvedValue(answer(200, { data: { _id: 'bg-9', name: 'Dune', category: 'nature', published: false } }))
    renderForm('background')
    expect(screen.queryByTestId('catalog-upload-gender')).toBeNull()
    expect(screen.queryByTestId('catalog-upload-bodyType')).toBeNull()
    await userEvent.upload(screen.getByTestId('catalog-upload-file'), photo())
    await userEvent.type(screen.getByTestId('catalog-upload-name'), 'Dune')
    await userEvent.type(screen.getByTestId('catalog-upload-category'), 'nature')
    await userEvent.type(screen.getByTestId('catalog-upload-description'), 'Rippled sand')
    await userEvent.click(screen.getByTestId('catalog-upload-submit'))
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce())
    const form = (fetchMock.mock.calls[0] as [string, RequestInit])[1].body as FormData
    expect(form.get('kind')).toBe('background')
    expect(form.get('category')).toBe('nature')
    expect(form.get('description')).toBe('Rippled sand')
    expect(form.has('gender') || form.has('skinTone') || form.has('bodyType')).toBe(false)
  })

  it("shows the chosen photo's name in the picker", async () => {
    renderForm()
    expect(screen.getByTestId('catalog-upload-file-zone').textContent).toContain('Choose a photo')
    await userEvent.upload(screen.getByTestId('catalog-upload-file'), photo())
    expect(screen.getByTestId('catalog-upload-file-name').textContent).toBe('ava.jpg')
  })
})
