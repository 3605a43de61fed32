import { useId } from 'react'
import { Dialog } from '@/components/ui/Dialog'
import { EnterpriseForm } from './EnterpriseForm'
import styles from '../enterprise.module.css'

/** The sidebar's Book An Appointment dialog (EnterpriseDialog opens it). */
export function BookingDialog({ onClose }: { onClose: () => void }) {
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
