import { cleanup, render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import type { ContentCredentials, GenerationImage } from '@/types/api'
import { ImageCard } from './ImageCard'

const CREDENTIALS: ContentCredentials = {
  aiGenerated: true,
  action: 'c2pa.created',
  digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
  claimGenerator: 'MetaModel 0.1.0',
  engine: 'cpu 0.1.0',
  generationId: 'svc-1',
  taskId: 't-1',
  testMode: false,
  signer: 'MetaModel signer',
  issuer: 'MetaModel',
  signedAt: null,
  manifestLabel: 'urn:c2pa:1',
  ingredients: [],
  sha256: 'a'.repeat(64),
}

const image = (extra: Partial<GenerationImage>): GenerationImage => ({
  taskId: 't-1',
  status: 'completed',
  stage: 'completed',
  progress: 100,
  inputKey: 'uploads/a/t-1.jpg',
  inputThumbnailUrl: 'http://s3/in/t-1',
  outputs: [{ key: 'outputs/t-1.jpg', url: 'http://s3/o/t-1', thumbnailUrl: 'http://s3/ot/t-1' }],
  error: null,
  shared: false,
  comment: '',
  ...extra,
})

function renderCard(t: GenerationImage) {
  render(
    <MemoryRouter>
      <ul>
        <ImageCard image={t} index={0} />
      </ul>
    </MemoryRouter>,
  )
}

afterEach(() => cleanup())

describe('ImageCard', () => {
  it('shows a finished image’s Content Credentials line', () => {
    renderCard(image({ contentCredentials: CREDENTIALS }))
    expect(screen.getByTestId('content-credentials').textContent).toContain('Content Credentials: AI-generated with MetaModel')
  })

  it('shows none for an image made before signing, or one still generating', () => {
    renderCard(image({ contentCredentials: null }))
    expect(screen.queryByTestId('content-credentials')).toBeNull()
    cleanup()
    renderCard(image({ status: 'running', progress: 40, outputs: [], contentCredentials: CREDENTIALS }))
    expect(screen.queryByTestId('content-credentials')).toBeNull()
  })
})
