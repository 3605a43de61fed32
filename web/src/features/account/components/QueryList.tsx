import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Alert } from '@/components/ui/Alert'
import { LoadingBlock } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import styles from './ApiKeysSection.module.css'

interface QueryListProps<T> {
  query: UseQueryResult<T[]>
  loadingLabel: string
  /** Shown as a warning: the rest of the settings page still works. */
  errorTitle: string
  emptyText: string
  emptyTestId: string
  /** The items, once there is at least one. */
  children: (items: T[]) => ReactNode
}

/** A list of the account's things (API keys, webhook endpoints, deliveries) as the server
 *  answers it: loading, could not be loaded, none yet, or the items. */
export function QueryList<T>({ query, loadingLabel, errorTitle, emptyText, emptyTestId, children }: QueryListProps<T>) {
  if (query.isPending) return <LoadingBlock label={loadingLabel} />
  if (query.isError) {
    return (
      <Alert tone="warning" title={errorTitle}>
        {errorMessage(query.error)}
      </Alert>
    )
  }
  if (query.data.length === 0) {
    return (
      <p className={styles.empty} data-testid={emptyTestId}>
        {emptyText}
      </p>
    )
  }
  return children(query.data)
}
