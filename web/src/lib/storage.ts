// Thin wrappers: storage can throw (private mode, quota, disabled cookies) and
// the app should keep working in memory when it does.

type Area = 'local' | 'session'

function area(which: Area): Storage | null {
  try {
    return which === 'local' ? window.localStorage : window.sessionStorage
  } catch {
    return null
  }
}

export function readItem(which: Area, key: string): string | null {
  try {
    return area(which)?.getItem(key) ?? null
  } catch {
    return null
  }
}

export function writeItem(which: Area, key: string, value: string): void {
  try {
    area(which)?.setItem(key, value)
  } catch {
    /* storage full or unavailable: state stays in memory only */
  }
}

export function removeItem(which: Area, key: string): void {
  try {
    area(which)?.removeItem(key)
  } catch {
    /* ignore */
  }
}

export function readJson<T>(which: Area, key: string): T | null {
  const raw = readItem(which, key)
  if (raw === null) return null
  try {
    return JSON.parse(raw) as T
  } catch {
    return null
  }
}

export function writeJson(which: Area, key: string, value: unknown): void {
  writeItem(which, key, JSON.stringify(value))
}
