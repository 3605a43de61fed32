export function formatCredits(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2)
}

export function pluralize(n: number, one: string, many = `${one}s`): string {
  return `${formatCredits(n)} ${n === 1 ? one : many}`
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
