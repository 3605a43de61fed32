/**
 * Server state goes through one TanStack Query client: caching, retries, refetch
 * on window focus, polling. Its caches are also the one place where a session
 * that the refresh cookie could not save is handled (spec §8: any 401 on a
 * query or mutation toasts 'Unauthorised' and forces a logout); the app
 * registers that reaction with onSessionExpired.
 */
import { MutationCache, MutationObserver, QueryCache, QueryClient } from '@tanstack/react-query'
import { ApiError, isSessionExpired } from './api'

let sessionExpiredHandler: (() => void) | null = null

/** Sets what happens when a query or mutation ends the session (the app: toast and logout). */
export function onSessionExpired(handler: (() => void) | null): void {
  sessionExpiredHandler = handler
}

function reportError(err: unknown): void {
  if (isSessionExpired(err)) sessionExpiredHandler?.()
}

/** Client errors (4xx) are answers, not accidents: retrying would not change them. */
export function shouldRetry(failureCount: number, err: unknown, max = 2): boolean {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500) return false
  return failureCount < max
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: reportError }),
    mutationCache: new MutationCache({ onError: reportError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, err) => shouldRetry(failureCount, err),
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  })
}

export const queryClient = createQueryClient()

/**
 * Runs a request as a mutation of the shared client from outside React (e.g. the
 * upload orchestration), so its failures take the same path as every other call.
 */
export function runMutation<TData, TVariables>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  variables: TVariables,
): Promise<TData> {
  return new MutationObserver<TData, unknown, TVariables>(queryClient, { mutationFn }).mutate(variables)
}
