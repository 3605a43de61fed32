import type { ReactNode } from 'react'
import { IconAlert, IconCheck } from './icons'

interface AlertProps {
  tone?: 'error' | 'warning' | 'info' | 'success'
  title?: string
  children?: ReactNode
  testId?: string
  action?: ReactNode
}

export function Alert({ tone = 'info', title, children, testId, action }: AlertProps) {
  return (
    <div
      className={`alert alert--${tone}`}
      role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}
      data-testid={testId}
    >
      <span className="alert__icon">{tone === 'success' ? <IconCheck /> : <IconAlert />}</span>
      <div className="alert__body">
        {title && <p className="alert__title">{title}</p>}
        {children && <div className="alert__text">{children}</div>}
      </div>
      {action && <div className="alert__action">{action}</div>}
    </div>
  )
}
