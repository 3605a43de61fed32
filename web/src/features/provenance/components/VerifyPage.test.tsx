import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ContentCredentials, ProvenanceCheck } from '@/types/api'
import { VerifyPage } from './VerifyPage'
import { json } from '@/testing/http'

const CREDENTIALS: ContentCredentials = {
  aiGenerated: true,
  action: 'c2pa.edited',
  digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia',
  claimGenerator: 'MetaModel 0.1.0',
  engine: 'cpu 0.1.0',
  generationId: 'gen-42',
  taskId: 'task-7',
  testMode: false,
  signer: 'MetaModel development signer',
  issuer: 'MetaModel development (untrusted)',
  signedAt: '2026-11-28T06:30:00Z',
  manifestLabel: 'urn:c2pa:1',
  ingredients: [{ kind: 'photo', title: 'Uploaded photo', identifier: `sha256:${'c'.repeat(64)}`, relationship: 'parentOf' }],
  sha256: 'd'.repeat(64),
}

const VERIFIED: ProvenanceCheck = {
  verdict: 'verified',
  message: 'This image carries valid Content Credentials from MetaModel, and its pixels have not changed since it was made.',
  hasCredentials: true,
  ours: true,
  pixelsChanged: false,
  generationId: 'gen-42',
  taskId: 'task-7',
  testMode: false,
  credentials: CREDENTIALS,
  validationCodes: [],
}

const NONE: ProvenanceCheck = {
  verdict: 'none',
  message: 'This image carries no Content Credentials. They may have been removed, for example by a screenshot.',
  hasCredentials: false,
  ours: false,
  pixelsChanged: false,
  generationId: null,
  taskId: null,
  testMode: null,
  credentials: null,
  validationCodes: [],
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/verify']}>
        <VerifyPage />
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

const image = (name = 'result.jpg') => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], name, { type: 'image/jpeg' })

describe('VerifyPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>
  let answer: () => Response

  beforeEach(() => {
    localStorage.clear()
    answer = () => json(200, { data: VERIFIED })
    fetchMock = vi.fn(async (url: string) => {
      if (url === '/api/v1/provenance') return answer()
      return json(404, { message: 'Not found.' })
    })
    vi.stubGlobal('fetch', fetchMock)
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('sends the chosen file and shows the verdict, the ids and the credentials', async () => {
    renderPage()
    expect(screen.getByRole('heading', { level: 1, name: 'Check an image' })).toBeTruthy()
    await userEvent.upload(screen.getByTestId('verify-input'), image())

    expect(await screen.findByTestId('verify-message')).toBeTruthy()
    expect(screen.getByTestId('verify-message').textContent).toBe(VERIFIED.message)
    expect(screen.getByTestId('verify-result').dataset.verdict).toBe('verified')
    expect(screen.getByTestId('verify-verdict').textContent).toContain('Made by MetaModel, unchanged')
    expect(screen.getByTestId('verify-file-name').textContent).toBe('result.jpg')
    expect(screen.getByTestId('verify-generation-id').textContent).toBe('gen-42')
    expect(screen.getByTestId('verify-task-id').textContent).toBe('task-7')
    // The credentials' details are the answer here: open from the start, no link back to /verify.
    const panel = screen.getByTestId('verify-credentials')
    expect(panel.textContent).toContain('Content Credentials: AI-generated with MetaModel')
    expect(screen.getByTestId('credentials-details').hidden).toBe(false)
    expect(screen.getByTestId('credentials-action').textContent).toBe('Edited: composite with AI-generated content')
    expect(screen.getByTestId('credentials-development')).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Check an image' })).toBeNull()

    // One POST of the file itself, as the multipart field `file`; a visitor starts no guest session.
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/v1/provenance')
    expect(init.method).toBe('POST')
    const sent = (init.body as FormData).get('file') as File
    expect(sent.name).toBe('result.jpg')
    expect(sent.size).toBe(4)
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined()
  })

  it('checks a dropped file too', async () => {
    answer = () => json(200, { data: NONE })
    renderPage()
    fireEvent.drop(screen.getByTestId('verify-dropzone'), { dataTransfer: { files: [image('screenshot.png')] } })
    expect((await screen.findByTestId('verify-message')).textContent).toBe(NONE.message)
    expect(screen.getByTestId('verify-verdict').textContent).toContain('No Content Credentials')
    // Nothing of ours: no ids, no credentials panel.
    expect(screen.queryByTestId('verify-ids')).toBeNull()
    expect(screen.queryByTestId('verify-credentials')).toBeNull()
    const sent = ((fetchMock.mock.calls[0] as [string, RequestInit])[1].body as FormData).get('file') as File
    expect(sent.name).toBe('screenshot.png')
  })

  it('shows the server’s message when it refuses the file', async () => {
    answer = () => json(415, { message: 'Send a JPEG or PNG image: the formats MetaModel delivers.' })
    renderPage()
    await userEvent.upload(screen.getByTestId('verify-input'), new File(['GIF89a'], 'anim.gif', { type: 'image/gif' }), {
      applyAccept: false,
    })
    const error = await screen.findByTestId('verify-error')
    expect(error.textContent).toContain('anim.gif could not be checked')
    expect(error.textContent).toContain('Send a JPEG or PNG image: the formats MetaModel delivers.')
    expect(screen.queryByTestId('verify-result')).toBeNull()
  })

  it('says when an image of ours was changed since', async () => {
    answer = () =>
      json(200, {
        data: {
          ...VERIFIED,
          verdict: 'altered',
          pixelsChanged: true,
          message: "This image carries MetaModel's Content Credentials, but the file was changed after it was signed.",
        },
      })
    renderPage()
    await userEvent.upload(screen.getByTestId('verify-input'), image())
    expect((await screen.findByTestId('verify-verdict')).textContent).toContain('Made by MetaModel, but changed since')
    expect(screen.getByTestId('verify-message').textContent).toContain('changed after it was signed')
  })
})
