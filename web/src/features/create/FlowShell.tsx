import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { IconCheck } from '@/components/ui/icons'
import styles from './FlowShell.module.css'

const FLOW_STEPS = [
  { path: '/upload-images', label: 'Upload images' },
  { path: '/select-model', label: 'Select model' },
  { path: '/select-background', label: 'Select background' },
  { path: '/generate', label: 'Generate' },
] as const

interface FlowShellProps {
  step: 0 | 1 | 2 | 3
  title: string
  subtitle?: ReactNode
  children: ReactNode
  footer?: ReactNode
}

const STATE_CLASS = { done: styles.stepperItemDone, current: styles.stepperItemCurrent, todo: '' } as const

/** The line in the footer that says what is chosen or going on (read out when it changes). */
export function FlowStatus({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p className={styles.status} aria-live="polite" data-testid={testId}>
      {children}
    </p>
  )
}

export function FlowShell({ step, title, subtitle, children, footer }: FlowShellProps) {
  return (
    <div className={styles.flow}>
      <nav aria-label="Progress" className={styles.stepper}>
        <ol>
          {FLOW_STEPS.map((s, i) => {
            const state = i < step ? 'done' : i === step ? 'current' : 'todo'
            const content = (
              <>
                <span className={styles.stepperDot} aria-hidden="true">
                  {state === 'done' ? <IconCheck size={14} /> : i + 1}
                </span>
                <span className={styles.stepperLabel}>{s.label}</span>
              </>
            )
            return (
              <li key={s.path} className={`${styles.stepperItem} ${STATE_CLASS[state] ?? ''}`}>
                {/* Earlier steps stay reachable; later ones need the earlier choices first. */}
                {state === 'done' ? (
                  <Link to={s.path} className={styles.stepperLink}>
                    {content}
                  </Link>
                ) : (
                  <span className={styles.stepperLink} aria-current={state === 'current' ? 'step' : undefined}>
                    {content}
                  </span>
                )}
              </li>
            )
          })}
        </ol>
      </nav>

      <header className="page-header">
        <h1>{title}</h1>
        {subtitle && <p className="page-header__sub">{subtitle}</p>}
      </header>

      <div className={styles.body}>{children}</div>

      {footer && <div className={styles.footer}>{footer}</div>}
    </div>
  )
}
