import { IconArrowLeft, IconArrowRight } from '@/components/ui/icons'
import styles from '../billing.module.css'

interface PagerProps {
  page: number
  pages: number
  onPage: (page: number) => void
  label: string
  testId: string
}

export function Pager({ page, pages, onPage, label, testId }: PagerProps) {
  if (pages <= 1) return null
  return (
    <nav className={`pager ${styles.billingPager}`} aria-label={label}>
      <button type="button" className="btn btn--secondary btn--small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <IconArrowLeft size={16} /> Previous
      </button>
      <span className="pager__info" data-testid={testId}>
        Page {page} of {pages}
      </span>
      <button type="button" className="btn btn--secondary btn--small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next <IconArrowRight size={16} />
      </button>
    </nav>
  )
}
