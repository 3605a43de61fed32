import { afterEach, describe, expect, it, vi } from 'vitest'
import { attachmentName, contentLength, readWithProgress, zipPercent, type ZipProgress } from './zipDownload'

/** A response whose body arrives in the given chunks. */
function streamed(chunks: number[], headers: Record<string, string>): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const size of chunks) controller.enqueue(new Uint8Array(size).fill(7))
      controller.close()
    },
  })
  return new Response(body, { status: 200, headers })
}

describe('ZIP download progress', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('computes the percentage from bytes read and Content-Length, unknown without a length', () => {
    expect(zipPercent({ received: 0, total: 400 })).toBe(0)
    expect(zipPercent({ received: 100, total: 400 })).toBe(25)
    expect(zipPercent({ received: 500, total: 400 })).toBe(100)
    expect(zipPercent({ received: 100, total: null })).toBeNull()
    expect(zipPercent({ received: 100, total: 0 })).toBeNull()
  })

  it('reads Content-Length and the file name from the headers', () => {
    expect(contentLength(new Headers({ 'Content-Length': '1234' }))).toBe(1234)
    expect(contentLength(new Headers({ 'Content-Length': 'abc' }))).toBeNull()
    expect(contentLength(new Headers())).toBeNull()
    expect(attachmentName(new Headers({ 'Content-Disposition': 'attachment; filename="metamodel-images.zip"' }))).toBe(
      'metamodel-images.zip',
    )
    expect(attachmentName(new Headers({ 'Content-Disposition': 'attachment; filename="../x.zip"' }))).toBe('.._x.zip')
    expect(attachmentName(new Headers(), 'fallback.zip')).toBe('fallback.zip')
  })

  it('counts every chunk against Content-Length and returns the whole body', async () => {
    const seen: ZipProgress[] = []
    const blob = await readWithProgress(
      streamed([100, 200, 100], { 'Content-Length': '400', 'Content-Type': 'application/zip' }),
      (p) => seen.push(p),
    )
    expect(seen.map((p) => p.received)).toEqual([0, 100, 300, 400])
    expect(seen.map(zipPercent)).toEqual([0, 25, 75, 100])
    expect(blob.size).toBe(400)
    expect(blob.type).toBe('application/zip')
  })

  it('fails when fewer bytes arrive than announced (a broken archive)', async () => {
    await expect(readWithProgress(streamed([100], { 'Content-Length': '400' }), () => {})).rejects.toThrow(/interrupted/)
  })
})
