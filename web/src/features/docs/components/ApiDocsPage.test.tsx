import { cleanup, render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiDocsPage } from './ApiDocsPage'

// The reference (Redoc) is its own lazy chunk; here a stand-in shows what it was given.
vi.mock('./ApiReference', () => ({
  default: ({ origin }: { origin: string }) => <p data-testid="reference-stub">reference for {origin}</p>,
}))

describe('ApiDocsPage', () => {
  afterEach(cleanup)

  function renderPage() {
    render(
      <MemoryRouter initialEntries={['/docs/api']}>
        <ApiDocsPage />
      </MemoryRouter>,
    )
  }

  it('shows the quickstart with this site’s origin in the examples', () => {
    renderPage()
    const origin = window.location.origin
    const curl = screen.getByTestId('api-docs-curl').textContent ?? ''
    expect(curl).toContain(`-F file=@photo.jpg \\\n  ${origin}/api/v1/uploads`)
    expect(curl).toContain(`${origin}/api/v1/generations`)
    expect(curl).toContain('Idempotency-Key:')
    expect(curl).toContain('"backgroundId": "white"')
    expect(curl).toContain(`${origin}/api/v1/generations/GEN_ID`)
    expect(screen.getByTestId('api-docs-python').textContent).toContain(`base_url="${origin}"`)
    expect(screen.getByTestId('api-docs-cli').textContent).toContain(
      'metamodel generate --service burstreplace --background white photos/*.jpg --out results/',
    )
    expect(screen.getByRole('link', { name: /User Setting → API keys/ }).getAttribute('href')).toBe('/user-setting')
  })

  it('covers test mode, errors and limits', () => {
    renderPage()
    const text = screen.getByTestId('api-docs').textContent ?? ''
    expect(text).toContain('an endpoint added with a test key is a test endpoint')
    for (const part of ['mm_test_', '"livemode": false', 'RateLimit-Remaining', 'Retry-After', 'starting_after']) {
      expect(text).toContain(part)
    }
    for (const status of ['401', '402', '404', '422', '429', '503']) {
      expect(screen.getByRole('cell', { name: status })).toBeTruthy()
    }
  })

  it('documents webhooks: adding an endpoint, the events, the body, verification and retries', () => {
    renderPage()
    const origin = window.location.origin
    const section = screen.getByTestId('api-docs-webhooks')
    expect(screen.getByRole('heading', { level: 2, name: 'Webhooks' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Webhooks' }).getAttribute('href')).toBe('#webhooks')
    expect(screen.getByRole('link', { name: /User Setting → Webhooks/ }).getAttribute('href')).toBe('/user-setting')
    const curl = screen.getByTestId('api-docs-webhook-curl').textContent ?? ''
    expect(curl).toContain('Authorization: Bearer $KEY')
    expect(curl).toContain(`${origin}/api/v1/webhooks`)
    expect(curl).toContain('"events": ["generation.completed", "generation.failed", "task.completed"]')
    const text = section.textContent ?? ''
    for (const event of ['generation.completed', 'generation.failed', 'task.completed']) {
      expect(screen.getByRole('cell', { name: event })).toBeTruthy()
    }
    for (const part of [
      '{"type": "...", "timestamp": "...", "data": {...}}',
      '{"imageId": "...", "generation": {...}}',
      'GET /api/v1/generations/{id}',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'standardwebhooks',
      '3 days',
      '10 seconds',
      'Only public addresses are accepted',
    ]) {
      expect(text).toContain(part)
    }
    const body = JSON.parse(screen.getByTestId('api-docs-webhook-body').textContent ?? '') as {
      type: string
      data: Record<string, unknown>
    }
    expect(body.type).toBe('generation.completed')
    expect(Object.keys(body.data).sort()).toEqual(
      ['completedAt', 'createdAt', 'error', 'id', 'images', 'livemode', 'metadata', 'object', 'service', 'status'],
    )
    const python = screen.getByTestId('api-docs-webhook-python').textContent ?? ''
    expect(python).toContain('from standardwebhooks import Webhook')
    expect(python).toContain('.verify(body, dict(request.headers))')
  })

  it('explains Content Credentials: what is signed, the API field, and how to verify a file', () => {
    renderPage()
    const origin = window.location.origin
    expect(screen.getByRole('heading', { level: 2, name: 'Content Credentials' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Content Credentials' }).getAttribute('href')).toBe('#content-credentials')
    const text = screen.getByTestId('api-docs-credentials').textContent ?? ''
    for (const part of [
      'c2pa.created',
      'c2pa.edited',
      'trainedAlgorithmicMedia',
      'compositeWithTrainedAlgorithmicMedia',
      'SHA-256',
      'catalog ids',
      'test-mode',
      'contentCredentials',
      'POST /api/v1/provenance',
      'a screenshot removes them',
    ]) {
      expect(text).toContain(part)
    }
    expect(screen.getByRole('link', { name: 'Check an image' }).getAttribute('href')).toBe('/verify')
    expect(screen.getByRole('link', { name: 'contentcredentials.org/verify' }).getAttribute('href')).toBe(
      'https://contentcredentials.org/verify',
    )
    const example = screen.getByTestId('api-docs-provenance').textContent ?? ''
    expect(example).toContain('c2patool result.jpg')
    expect(example).toContain(
      `curl -X POST --data-binary @result.jpg -H 'Content-Type: image/jpeg' \\\n  ${origin}/api/v1/provenance`,
    )
  })

  it('loads the reference lazily, for this origin', async () => {
    renderPage()
    expect((await screen.findByTestId('reference-stub')).textContent).toBe(`reference for ${window.location.origin}`)
  })
})
