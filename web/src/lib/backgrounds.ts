/**
 * The built-in backgrounds' fixed, descriptive names, by catalog id: the background picker shows
 * them, and so does every image's Content Credentials, which name a background by its id.
 */
export const BUILTIN_BACKGROUND_LABELS: Readonly<Record<string, string>> = {
  transparent: 'Transparent PNG',
  white: 'Pure white',
}
