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

/**
 * The storage of a jotai `atomWithStorage` (with `getOnInit: true`) that keeps one JSON value
 * under `key`, written through on every change exactly as writeJson writes it.
 *
 * The stored value is read once, when the atom is created: `restore` gets the parsed JSON (null
 * when absent or unreadable) and gives the value to start from. From then on memory is the truth,
 * as it was before atomWithStorage: the re-read atomWithStorage does when the atom is mounted gets
 * back the value last read or written (so a repair meant for a reload, such as marking
 * interrupted uploads, never runs on a live value, and a failed write loses nothing). No
 * cross-tab sync.
 */
export function writeThroughJsonStorage<T>(which: Area, restore: (saved: unknown) => T) {
  let current: { value: T } | null = null
  return {
    getItem(key: string): T {
      current ??= { value: restore(readJson<unknown>(which, key)) }
      return current.value
    },
    setItem(key: string, value: T): void {
      current = { value }
      writeJson(which, key, value)
    },
    removeItem(key: string): void {
      current = null
      removeItem(which, key)
    },
  }
}
