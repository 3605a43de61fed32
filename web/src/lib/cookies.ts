// document.cookie helpers for the few first-party cookies the app sets itself.

export interface CookieOptions {
  maxAgeSeconds: number
  path?: string
  secure?: boolean
}

export function readCookie(name: string): string | null {
  let raw: string
  try {
    raw = document.cookie
  } catch {
    return null // cookies disabled
  }
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    if (part.slice(0, eq).trim() !== name) continue
    try {
      return decodeURIComponent(part.slice(eq + 1).trim())
    } catch {
      return null
    }
  }
  return null
}

export function writeCookie(name: string, value: string, { maxAgeSeconds, path = '/', secure = true }: CookieOptions): void {
  const attrs = [`${name}=${encodeURIComponent(value)}`, `Max-Age=${maxAgeSeconds}`, `Path=${path}`, 'SameSite=Lax']
  if (secure) attrs.push('Secure')
  try {
    document.cookie = attrs.join('; ')
  } catch {
    /* cookies disabled */
  }
}

export function deleteCookie(name: string, path = '/'): void {
  try {
    document.cookie = `${name}=; Max-Age=0; Path=${path}; SameSite=Lax; Secure`
    document.cookie = `${name}=; Max-Age=0; Path=${path}; SameSite=Lax`
  } catch {
    /* cookies disabled */
  }
}
