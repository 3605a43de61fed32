import { useId, useState } from 'react'
import { LoadError } from '@/components/ui/LoadError'
import { IconCoins, IconDownload } from '@/components/ui/icons'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import { useDownloadInvoice } from '../api/downloadInvoice'
import { PAYMENTS_PAGE_SIZE, usePaymentHistory, type Payment } from '../api/getPaymentHistory'
import { formatDay, formatMoney, pageCount } from '../money'
import { Pager } from './Pager'
import styles from '../billing.module.css'

const STATUS_LABELS: Record<Payment['status'], string> = {
  paid: 'Paid',
  pending: 'Pending',
  failed: 'Failed',
  canceled: 'Canceled',
  // Abandoned: never paid within the checkout's lifetime.
  expired: 'Expired',
}

const STATUS_BADGES: Record<Payment['status'], string | undefined> = {
  paid: styles.billingBadgePaid,
  pending: styles.billingBadgePending,
  failed: styles.billingBadgeFailed,
  canceled: styles.billingBadgeCanceled,
  expired: styles.billingBadgeExpired,
}

function InvoiceButton({ payment }: { payment: Payment }) {
  const download = useDownloadInvoice()
  if (!payment.invoiceUrl) return null
  const invoiceUrl = payment.invoiceUrl
  return (
    <button
      type="button"
      className="btn btn--secondary btn--small"
      disabled={download.isPending}
      onClick={() =>
        download.mutate(
          { invoiceUrl, orderId: payment.orderId },
          { onError: (err) => toast.error(errorMessage(err)) },
        )
      }
      data-testid={`billing-invoice-${payment.orderId}`}
    >
      {download.isPending ? <Spinner label="Downloading" /> : <IconDownload size={16} />} Download invoice
    </button>
  )
}

/** The caller's payments, newest first, with an invoice PDF for each paid one. */
export function PaymentHistory({ userEmail }: { userEmail: string }) {
  const id = useId()
  const [page, setPage] = useState(1)
  const history = usePaymentHistory(userEmail, page)
  const data = history.data
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="billing-payments">
      <h2 id={`${id}-title`} className={`card__title ${styles.billingCardTitle}`}>
        <IconCoins /> Payment history
      </h2>
      {history.isPending ? (
        <LoadingBlock label="Loading your payments…" />
      ) : history.isError && !data ? (
        <LoadError
          title="Your payments could not be loaded"
          testId="billing-payments-error"
          error={history.error}
          onRetry={() => void history.refetch()}
        />
      ) : !data || data.items.length === 0 ? (
        <p className={`muted ${styles.billingEmpty}`} data-testid="billing-payments-empty">
          No payments yet. Credit packs and plans you buy are listed here, each with its invoice.
        </p>
      ) : (
        <>
          <table className={styles.billingTable} data-testid="billing-payments-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Description</th>
                <th scope="col" className={styles.billingTableNum}>
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Invoice</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((payment) => (
                <tr key={payment.orderId} data-testid="billing-payment-row">
                  <td data-label="Date">{formatDay(payment.createdAt)}</td>
                  <td data-label="Description">{payment.description}</td>
                  <td data-label="Amount" className={styles.billingTableNum} data-testid="billing-payment-amount">
                    {formatMoney(payment.amount, payment.currency)}
                  </td>
                  <td data-label="Status">
                    <span className={`${styles.billingBadge} ${STATUS_BADGES[payment.status] ?? ''}`}>{STATUS_LABELS[payment.status]}</span>
                  </td>
                  <td className={styles.billingTableAction}>
                    <InvoiceButton payment={payment} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={page}
            pages={pageCount(data.total, PAYMENTS_PAGE_SIZE)}
            onPage={setPage}
            label="Payment pages"
            testId="billing-payments-page"
          />
        </>
      )}
    </section>
  )
}
