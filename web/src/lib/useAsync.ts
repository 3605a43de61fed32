import { useCallback, useEffect, useState } from 'react'
import { errorMessage, isAbortError } from './api'

interface AsyncState<T> {
  key: string
  data: T | undefined
  error: string | null
}

export interface AsyncResult<T> {
  data: T | undefined
  error: string | null
  loading: boolean
  reload: () => void
}

/**
 * Minimal data loading for the few GET calls we make. `key` identifies the
 * request (e.g. the page number); when it changes the fetcher runs again and
 * results of stale requests are dropped. Loading is derived from the key so no
 * state is set synchronously inside the effect.
 */
export function useAsync<T>(key: string, fetcher: (signal: AbortSignal) => Promise<T>): AsyncResult<T> {
  const [state, setState] = useState<AsyncState<T>>({ key: '', data: undefined, error: null })
  const [nonce, setNonce] = useState(0)
  const requestKey = `${key}#${nonce}`

  useEffect(() => {
    const ctrl = new AbortController()
    fetcher(ctrl.signal).then(
      (data) => setState({ key: requestKey, data, error: null }),
      (err: unknown) => {
        if (isAbortError(err)) return
        setState((prev) => ({ key: requestKey, data: prev.data, error: errorMessage(err) }))
      },
    )
    return () => ctrl.abort()
    // The fetcher is expected to depend only on what `key` encodes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestKey])

  const reload = useCallback(() => setNonce((n) => n + 1), [])
  const loading = state.key !== requestKey
  // While a new key loads, the previous data stays visible (smooth paging).
  return { data: state.data, error: loading ? null : state.error, loading, reload }
}
