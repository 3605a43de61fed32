import { useNavigate } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { Dialog } from '@/components/ui/Dialog'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { formatCredits } from '@/lib/format'
import { toast } from '@/lib/toast'
import { usePlanChangePreview, useChangePlan, type PlanChangePreview, type PlanChoice } from '../api/changePlan'
import { formatMoney } from '../pricing'
import styles from '../pricing.module.css'

interface SwitchPlanDialogProps {
  choice: PlanChoice
  planName: string
  userEmail: string
  onClose: () => void
}

/** "15 Jan 2026" (UTC, as the server's period ends are). */
function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
}

/** What the change does, in the words a person checks before agreeing to a charge. */
function Terms({ preview }: { preview: PlanChangePreview }) {
  const perMonth = `${formatMoney(preview.amountPerPeriod, preview.currency)} per month for ${formatCredits(preview.creditsPerPeriod)} credits`
  if (preview.kind === 'upgrade') {
    return (
      <dl className={styles.switchTerms} data-testid="switch-plan-terms" data-kind="upgrade">
        <div>
          <dt>Charged now</dt>
          <dd data-testid="switch-plan-charge">
            {preview.amountNow === null || preview.amountNow === undefined
              ? 'The prorated difference, charged by the payment provider'
              : `${formatMoney(preview.amountNow, preview.currency)} (the difference to your current plan for this month)`}
          </dd>
        </div>
        <div>
          <dt>Credits now</dt>
          <dd data-testid="switch-plan-credits">+{formatCredits(preview.creditsNow)} at once</dd>
        </div>
        <div>
          <dt>From then on</dt>
          <dd>{perMonth}, starting today</dd>
        </div>
      </dl>
    )
  }
  if (preview.kind === 'downgrade') {
    return (
      <dl className={styles.switchTerms} data-testid="switch-plan-terms" data-kind="downgrade">
        <div>
          <dt>Charged now</dt>
          <dd data-testid="switch-plan-charge">Nothing</dd>
        </div>
        <div>
          <dt>Takes effect</dt>
          <dd data-testid="switch-plan-when">
            {day(preview.effectiveAt)}, at the end of your current period: you keep your current plan and credits until then
          </dd>
        </div>
        <div>
          <dt>From then on</dt>
          <dd>{perMonth}</dd>
        </div>
      </dl>
    )
  }
  return (
    <p data-testid="switch-plan-terms" data-kind="same">
      This is your current plan. Confirming keeps it and cancels a change you scheduled. Nothing is charged.
    </p>
  )
}

/** Switch the subscription to another monthly plan, after showing what it charges and when. */
export function SwitchPlanDialog({ choice, planName, userEmail, onClose }: SwitchPlanDialogProps) {
  const navigate = useNavigate()
  const preview = usePlanChangePreview(choice)
  const change = useChangePlan(userEmail)

  const confirm = () => {
    change.mutate(choice, {
      onSuccess: () => {
        const kind = preview.data?.kind
        toast.success(
          kind === 'downgrade'
            ? `Your plan changes to ${planName} at the end of this period.`
            : kind === 'upgrade'
              ? `You are on ${planName} now; the new credits are in your balance.`
              : `You stay on ${planName}.`,
        )
        onClose()
        void navigate('/billing-info')
      },
    })
  }

  return (
    <Dialog title={`Switch to ${planName}`} onClose={onClose} testId="switch-plan-dialog">
      {preview.isPending ? (
        <LoadingBlock label="Working out the change…" />
      ) : preview.isError ? (
        <Alert tone="error" title="This change cannot be made" testId="switch-plan-error">
          {errorMessage(preview.error)}
        </Alert>
      ) : (
        <>
          <Terms preview={preview.data} />
          {change.isError && (
            <Alert tone="error" title="Your plan was not changed" testId="switch-plan-error">
              {errorMessage(change.error)}
            </Alert>
          )}
          <div className={styles.switchActions}>
            <button type="button" className="btn btn--secondary" onClick={onClose}>
              Keep my plan
            </button>
            <button
              type="button"
              className="btn btn--primary"
              disabled={change.isPending}
              onClick={confirm}
              data-testid="switch-plan-confirm"
            >
              {change.isPending ? <Spinner label="Changing" /> : null}
              {preview.data.kind === 'upgrade' ? 'Pay and switch' : 'Confirm'}
            </button>
          </div>
        </>
      )}
    </Dialog>
  )
}
