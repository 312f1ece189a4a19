interface Props {
  value: number
  max: number
  label: string
  /** Text a screen reader hears instead of a bare percentage. */
  valueText?: string
  small?: boolean
}

/** A determinate progress bar with an accessible name and value. */
export function ProgressBar({ value, max, label, valueText, small }: Props) {
  const pct = max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0
  return (
    <div
      className={`progress${small ? ' progress--small' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(pct)}
      aria-valuetext={valueText ?? `${Math.round(pct)}%`}
    >
      <div className="progress__fill" style={{ width: `${pct}%` }} />
    </div>
  )
}
