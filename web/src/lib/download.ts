const EXT_BY_TYPE: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
}

/** A file name for a download: keeps the extension of the storage key if any. */
export function downloadName(base: string, keyOrUrl: string, blobType?: string): string {
  const path = keyOrUrl.split('?')[0] ?? ''
  const match = /\.([a-z0-9]{2,5})$/i.exec(path)
  const ext = match?.[1] ?? (blobType ? EXT_BY_TYPE[blobType] : undefined) ?? 'png'
  return `${base}.${ext.toLowerCase()}`
}

/** Saves bytes already in the browser as a file (through a same-origin object URL). */
export function saveBlob(blob: Blob, fileName: string): void {
  const objectUrl = URL.createObjectURL(blob)
  try {
    const a = document.createElement('a')
    a.href = objectUrl
    a.download = fileName
    a.rel = 'noopener'
    document.body.appendChild(a)
    a.click()
    a.remove()
  } finally {
    // Revoke on the next tick: revoking synchronously can cancel the download in some browsers.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 1000)
  }
}
