import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { IconCheck } from '@/components/ui/icons'

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

export function FlowShell({ step, title, subtitle, children, footer }: FlowShellProps) {
  return (
    <div className="flow">
      <nav aria-label="Progress" className="stepper">
        <ol>
          {FLOW_STEPS.map((s, i) => {
            const state = i < step ? 'done' : i === step ? 'current' : 'todo'
            const content = (
              <>
                <span className="stepper__dot" aria-hidden="true">
                  {state === 'done' ? <IconCheck size={14} /> : i + 1}
                </span>
                <span className="stepper__label">{s.label}</span>
              </>
            )
            return (
              <li key={s.path} className={`stepper__item stepper__item--${state}`}>
                {/* Earlier steps stay reachable; later ones need the earlier choices first. */}
                {state === 'done' ? (
                  <Link to={s.path} className="stepper__link">
                    {content}
                  </Link>
                ) : (
                  <span className="stepper__link" aria-current={state === 'current' ? 'step' : undefined}>
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

      <div className="flow__body">{children}</div>

      {footer && <div className="flow__footer">{footer}</div>}
    </div>
  )
}
