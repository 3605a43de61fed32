import { useAtom } from 'jotai'
import { useCallback, useId } from 'react'
import { createPortal } from 'react-dom'
import { Dialog } from '@/components/ui/Dialog'
import { enterpriseDialogOpenAtom } from '../stores/dialog'
import { EnterpriseForm } from './EnterpriseForm'
import styles from '../enterprise.module.css'

function BookingDialog({ onClose }: { onClose: () => void }) {
  const titleId = useId()
  return (
    <Dialog
      labelledBy={titleId}
      onClose={onClose}
      className={styles.enterpriseDialog}
      testId="enterprise-dialog"
      closeTestId="enterprise-dialog-close"
    >
      <div>
        <h2 id={titleId} className={styles.enterpriseDialogTitle}>
          Book An Appointment
        </h2>
        <p className="muted">Enterprise Solutions: tell us who you are and our expert will connect with you.</p>
      </div>
      <EnterpriseForm source="sidebar" onSubmitted={onClose} autoFocus />
    </Dialog>
  )
}

/**
 * The Enterprise Solutions form as a dialog over the page, while it is asked for. Rendered
 * into <body> so it shows wherever its host sits (even in a hidden rail).
 */
export function EnterpriseDialog() {
  const [open, setOpen] = useAtom(enterpriseDialogOpenAtom)
  const close = useCallback(() => setOpen(false), [setOpen])
  if (!open) return null
  return createPortal(<BookingDialog onClose={close} />, document.body)
}
