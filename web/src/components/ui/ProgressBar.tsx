interface ProgressBarProps {
  /** 0..100 */
  value: number
  label: string
  tone?: 'default' | 'success' | 'danger'
  testId?: string
}

export function ProgressBar({ value, label, tone = 'default', testId }: ProgressBarProps) {
  const pct = Math.max(0, Math.min(100, Math.round(value)))
  return (
    <div
      className={`progress progress--${tone}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      data-testid={testId}
    >
      <div className="progress__fill" style={{ width: `${pct}%` }} />
    </div>
  )
}
