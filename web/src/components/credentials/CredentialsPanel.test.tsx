import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ContentCredentials } from '@/types/api'
import { CredentialsPanel } from './CredentialsPanel'
import { actionText, ingredientLine, isDevelopmentSigner, shortHash, signerText } from './credentials'

const PHOTO_HASH = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'
const IPTC = 'http://cv.iptc.org/newscodes/digitalsourcetype/'

/** A model swap's credentials as the API returns them (api/views.py summary_view). */
function credentials(extra: Partial<ContentCredentials> = {}): ContentCredentials {
  return {
    aiGenerated: true,
    action: 'c2pa.created',
    digitalSourceType: `${IPTC}trainedAlgorithmicMedia`,
    claimGenerator: 'MetaModel 0.1.0',
    engine: 'cpu 0.1.0',
    generationId: 'gen-1',
    taskId: 'task-1',
    testMode: false,
    signer: 'MetaModel signer',
    issuer: 'MetaModel',
    signedAt: '2026-11-28T06:30:00Z',
    manifestLabel: 'urn:c2pa:1234',
    ingredients: [
      { kind: 'photo', title: 'Uploaded photo', identifier: `sha256:${PHOTO_HASH}`, relationship: 'inputTo' },
      { kind: 'model', title: 'Digital model', identifier: 'catalog:model-7', relationship: 'inputTo' },
      { kind: 'background', title: 'Background', identifier: 'catalog:bg-street-3', relationship: 'componentOf' },
    ],
    sha256: 'ab'.repeat(32),
    ...extra,
  }
}

function renderPanel(props: Parameters<typeof CredentialsPanel>[0]) {
  return render(
    <MemoryRouter>
      <CredentialsPanel {...props} />
    </MemoryRouter>,
  )
}

const toggle = () => screen.getByRole('button', { name: /Content Credentials: AI-generated with MetaModel/ })
const details = () => screen.getByTestId('credentials-details')

afterEach(() => cleanup())

describe('CredentialsPanel', () => {
  it('shows the one line with the CR badge, its details closed', () => {
    renderPanel({ credentials: credentials() })
    expect(toggle().textContent).toContain('Content Credentials: AI-generated with MetaModel')
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
    expect(toggle().getAttribute('aria-controls')).toBe(details().id)
    expect(details().hidden).toBe(true)
    expect(screen.queryByText('Test image')).toBeNull()
  })

  it('shows nothing, and no error, for an image without credentials', () => {
    const { container } = renderPanel({ credentials: null })
    expect(container.textContent).toBe('')
    cleanup()
    const undefinedOne = renderPanel({ credentials: undefined })
    expect(undefinedOne.container.textContent).toBe('')
  })

  it('opens and closes with the keyboard (Enter and Space on the focused button)', async () => {
    renderPanel({ credentials: credentials() })
    await userEvent.tab()
    expect(document.activeElement).toBe(toggle())
    await userEvent.keyboard('{Enter}')
    expect(toggle().getAttribute('aria-expanded')).toBe('true')
    expect(details().hidden).toBe(false)
    await userEvent.keyboard(' ')
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
    expect(details().hidden).toBe(true)
  })

  it('says what a model swap did, what it was made from, when, by whom and with which engine', async () => {
    renderPanel({ credentials: credentials(), catalogNames: { 'model-7': 'Ava, studio' } })
    await userEvent.click(toggle())
    expect(screen.getByTestId('credentials-action').textContent).toBe('Created with a trained AI model')
    const ingredients = screen.getByTestId('credentials-ingredients').textContent ?? ''
    expect(ingredients).toContain('Uploaded photo: SHA-256 9f86d081…0a08')
    // A known catalog entry by its name, an unknown one by its id.
    expect(ingredients).toContain('Digital model: Ava, studio')
    expect(ingredients).toContain('Background: bg-street-3')
    expect(screen.getByTestId('credentials-hash').getAttribute('title')).toBe(PHOTO_HASH)
    const date = screen.getByTestId('credentials-date')
    expect(date.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-28T06:30:00Z')
    expect(date.textContent).toBe(
      new Date('2026-11-28T06:30:00Z').toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' }),
    )
    expect(screen.getByTestId('credentials-signer').textContent).toBe('MetaModel signer, MetaModel')
    expect(screen.queryByTestId('credentials-development')).toBeNull()
    expect(screen.getByTestId('credentials-engine').textContent).toBe('cpu 0.1.0')
    expect(screen.getByRole('link', { name: 'Check an image' }).getAttribute('href')).toBe('/verify')
  })

  it('says a background replace is an edit: a composite with AI-generated content', async () => {
    renderPanel({
      credentials: credentials({ action: 'c2pa.edited', digitalSourceType: `${IPTC}compositeWithTrainedAlgorithmicMedia` }),
    })
    await userEvent.click(toggle())
    expect(screen.getByTestId('credentials-action').textContent).toBe('Edited: composite with AI-generated content')
  })

  it('notes development credentials: valid, but not trusted outside this installation', async () => {
    renderPanel({ credentials: credentials({ signer: 'MetaModel development signer', issuer: 'MetaModel development (untrusted)' }) })
    await userEvent.click(toggle())
    expect(screen.getByTestId('credentials-development').textContent).toBe(
      'Development credentials: valid, but not trusted outside this installation',
    )
  })

  it('marks a test image on the line and in the details', async () => {
    renderPanel({ credentials: credentials({ testMode: true }) })
    expect(toggle().textContent).toContain('Test image')
    await userEvent.click(toggle())
    expect(screen.getByTestId('credentials-test').textContent).toContain('Test image')
  })

  it('copies the photo’s whole SHA-256', async () => {
    const user = userEvent.setup()
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue()
    renderPanel({ credentials: credentials(), defaultOpen: true })
    await user.click(screen.getByRole('button', { name: 'Copy the full SHA-256 of the uploaded photo' }))
    expect(writeText).toHaveBeenCalledWith(PHOTO_HASH)
    expect(screen.getByRole('button', { name: 'Copy the full SHA-256 of the uploaded photo' }).textContent).toBe('Copied')
  })

  it('leaves out the link to /verify where asked (the /verify page itself)', () => {
    renderPanel({ credentials: credentials(), defaultOpen: true, verifyLink: false })
    expect(details().hidden).toBe(false)
    expect(screen.queryByRole('link', { name: 'Check an image' })).toBeNull()
  })
})

describe('credentials words', () => {
  it('names the action by C2PA action, else by IPTC source type', () => {
    expect(actionText({ action: 'c2pa.created', digitalSourceType: '' })).toBe('Created with a trained AI model')
    expect(actionText({ action: 'c2pa.edited', digitalSourceType: '' })).toBe('Edited: composite with AI-generated content')
    expect(actionText({ action: '', digitalSourceType: `${IPTC}compositeWithTrainedAlgorithmicMedia` })).toBe(
      'Edited: composite with AI-generated content',
    )
    expect(actionText({ action: '', digitalSourceType: `${IPTC}trainedAlgorithmicMedia` })).toBe('Created with a trained AI model')
    expect(actionText({ action: 'c2pa.other', digitalSourceType: '' })).toBe('c2pa.other')
  })

  it('tells development signers apart and joins signer and issuer once', () => {
    expect(isDevelopmentSigner({ signer: 'x', issuer: 'MetaModel development (untrusted)' })).toBe(true)
    expect(isDevelopmentSigner({ signer: 'MetaModel', issuer: 'MetaModel GmbH' })).toBe(false)
    expect(signerText({ signer: 'MetaModel', issuer: 'MetaModel' })).toBe('MetaModel')
    expect(signerText({ signer: '', issuer: 'Org' })).toBe('Org')
  })

  it('shortens hashes and reads each identifier scheme', () => {
    expect(shortHash(PHOTO_HASH)).toBe('9f86d081…0a08')
    expect(shortHash('abc')).toBe('abc')
    const source = ingredientLine({ kind: 'source', title: 'x', identifier: 'task:t-9', relationship: 'inputTo' })
    expect(source).toEqual({ label: 'Source image (re-render)', value: 'image t-9' })
    // The built-in backgrounds by their labels, whatever the page knows.
    expect(ingredientLine({ kind: 'background', title: 'Background', identifier: 'catalog:white', relationship: 'componentOf' }).value).toBe(
      'Pure white',
    )
    const other = ingredientLine({ kind: 'thing', title: 'Something', identifier: 'urn:x', relationship: 'inputTo' })
    expect(other.label).toBe('Something')
  })

  it('names a catalog entry by its signed name when the page does not know it', () => {
    const model = { kind: 'model', title: 'Ava', identifier: 'catalog:model-7', relationship: 'inputTo' }
    expect(ingredientLine(model)).toEqual({ label: 'Digital model', value: 'Ava' })
    // What the page knows wins; an image signed before names were signed shows the id.
    expect(ingredientLine(model, { 'model-7': 'Ava (studio)' }).value).toBe('Ava (studio)')
    expect(ingredientLine({ ...model, title: 'Digital model' }).value).toBe('model-7')
  })
})
