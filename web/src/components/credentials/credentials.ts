/**
 * What an image's Content Credentials (C2PA) say, in words a person reads: the summary the API
 * returns with each output (core/provenance/manifest.py CredentialsSummary) turned into the
 * lines the credentials panel shows.
 */
import { BUILTIN_BACKGROUND_LABELS } from '@/lib/backgrounds'
import type { ContentCredentials, CredentialsIngredient } from '@/types/api'

/** The one-line label every signed image shows. */
export const CREDENTIALS_LINE = 'Content Credentials: AI-generated with MetaModel'

export const CREATED_TEXT = 'Created with a trained AI model'
export const EDITED_TEXT = 'Edited: composite with AI-generated content'
export const DEVELOPMENT_NOTE = 'Development credentials: valid, but not trusted outside this installation'

// IPTC's digital source types (http://cv.iptc.org/newscodes/digitalsourcetype/…).
const COMPOSITE = /compositeWithTrainedAlgorithmicMedia$/
const TRAINED = /trainedAlgorithmicMedia$/

/** What was done, in plain words: by the C2PA action, else by the IPTC source type. */
export function actionText(credentials: Pick<ContentCredentials, 'action' | 'digitalSourceType'>): string {
  if (credentials.action === 'c2pa.edited') return EDITED_TEXT
  if (credentials.action === 'c2pa.created') return CREATED_TEXT
  // Composite first: its name ends with the other's.
  if (COMPOSITE.test(credentials.digitalSourceType)) return EDITED_TEXT
  if (TRAINED.test(credentials.digitalSourceType)) return CREATED_TEXT
  return credentials.action || 'Made with AI'
}

/**
 * Whether the signing certificate is a development one (`make run` makes its own chain, named
 * "MetaModel development (untrusted)"): valid, but nobody outside this installation trusts it.
 */
export function isDevelopmentSigner(credentials: Pick<ContentCredentials, 'issuer' | 'signer'>): boolean {
  return /development|untrusted/i.test(`${credentials.issuer} ${credentials.signer}`)
}

/** "Signer, Issuer", without repeating a name the two share or an empty part. */
export function signerText(credentials: Pick<ContentCredentials, 'issuer' | 'signer'>): string {
  const parts = [credentials.signer.trim(), credentials.issuer.trim()].filter(Boolean)
  return [...new Set(parts)].join(', ')
}

/** The signing time in the reader's locale; '' when unknown or unreadable. */
export function formatSignedAt(iso: string | null): string {
  if (!iso) return ''
  const when = new Date(iso)
  return Number.isNaN(when.getTime()) ? '' : when.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })
}

/** A long hash cut to its ends ("1a2b3c4d…9e8f"), enough to compare by eye. */
export function shortHash(hex: string): string {
  return hex.length > 16 ? `${hex.slice(0, 8)}…${hex.slice(-4)}` : hex
}

/** An ingredient's identifier split into its scheme and value ("sha256:…", "catalog:…", "task:…"). */
export function parseIdentifier(identifier: string): { scheme: string; value: string } {
  const at = identifier.indexOf(':')
  if (at <= 0) return { scheme: '', value: identifier }
  return { scheme: identifier.slice(0, at).toLowerCase(), value: identifier.slice(at + 1) }
}

/** One ingredient as the panel lists it. */
export interface IngredientLine {
  /** What it is ("Uploaded photo", "Digital model"…). */
  label: string
  /** What identifies it, shortened where it is a hash. */
  value: string
  /** The whole hash, when `value` shortens one (for its title and the copy button). */
  hash?: string
}

const INGREDIENT_KIND_LABELS: Record<string, string> = {
  photo: 'Uploaded photo',
  model: 'Digital model',
  background: 'Background',
  source: 'Source image (re-render)',
}

const GENERIC_TITLES = new Set(['Digital model', 'Background'])

/** Catalog names the page knows, by catalog id (a digital model's, a background's); the
 *  built-in backgrounds are always known. */
export type CatalogNames = Readonly<Record<string, string>>

export function ingredientLine(ingredient: CredentialsIngredient, names: CatalogNames = {}): IngredientLine {
  const label = INGREDIENT_KIND_LABELS[ingredient.kind] ?? (ingredient.title || ingredient.kind || 'Ingredient')
  const { scheme, value } = parseIdentifier(ingredient.identifier)
  if (scheme === 'sha256') return { label, value: `SHA-256 ${shortHash(value)}`, hash: value }
  if (scheme === 'catalog') {
    const builtin = ingredient.kind === 'background' ? BUILTIN_BACKGROUND_LABELS[value] : undefined
    // The signed title is the catalog entry's name when the server knew it (older images say
    // only "Digital model" / "Background", which the label already says).
    const signedName = ingredient.title && !GENERIC_TITLES.has(ingredient.title) ? ingredient.title : undefined
    return { label, value: names[value] ?? builtin ?? signedName ?? value }
  }
  if (scheme === 'task') return { label, value: `image ${value}` }
  return { label, value: ingredient.identifier }
}
