import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { dayLabel, type UsageDay } from '@/lib/usageDays'
import styles from './UsageChart.module.css'

// SVG attributes take plain colours (the palette of styles/global.css).
const ACCENT = '#4f46e5'
const SUCCESS = '#15803d'
const MUTED = '#60636c' // --muted (global.css)
const BORDER = '#e4e4e8'

/**
 * Credits spent (and given back) per day: one pair of bars per day of the window (the
 * Dashboard's last 30 days, or the range Billing's credit history shows).
 */
export function UsageChart({ days, testId }: { days: UsageDay[]; testId: string }) {
  const data = days.map((d) => ({ ...d, label: dayLabel(d.date) }))
  // About eight labels whatever the window (one a week for 30 days), counted back from the
  // last day so it is always named.
  const every = Math.max(1, Math.ceil(data.length / 8 / 7) * 7)
  const step = data.length <= 10 ? 1 : every
  const ticks = data.filter((_, i) => (data.length - 1 - i) % step === 0).map((d) => d.label)
  return (
    <div
      className={styles.usageChart}
      data-testid={testId}
      // The window drawn, for tests and walks (recharts draws nothing measurable without layout).
      data-days={days.length}
      data-first={days[0]?.date}
      data-last={days.at(-1)?.date}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 20, bottom: 0, left: -20 }} barGap={1}>
          <CartesianGrid vertical={false} stroke={BORDER} />
          <XAxis
            dataKey="label"
            tick={{ fontSize: 12, fill: MUTED }}
            tickLine={false}
            axisLine={{ stroke: BORDER }}
            ticks={ticks}
            interval={0}
          />
          <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: MUTED }} tickLine={false} axisLine={false} width={48} />
          <Tooltip
            cursor={{ fill: 'rgb(79 70 229 / 8%)' }}
            contentStyle={{ borderRadius: 8, borderColor: BORDER, fontSize: 13 }}
          />
          <Legend
            iconType="circle"
            iconSize={8}
            wrapperStyle={{ fontSize: 13 }}
            itemSorter={(item) => (item.dataKey === 'spent' ? 0 : 1)}
          />
          <Bar dataKey="spent" name="Spent" fill={ACCENT} radius={[3, 3, 0, 0]} maxBarSize={16} />
          <Bar dataKey="refunded" name="Refunded" fill={SUCCESS} radius={[3, 3, 0, 0]} maxBarSize={16} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}
