import { Suspense, type ComponentType } from 'react'
import type { Bar as BarChart, Doughnut as DoughnutChart, Line as LineChart } from 'react-chartjs-2'
import { lazyComponent } from '../../ui/lazy-component'

/**
 * The chart components of ./charts.ts, loaded on first use: a screen that shows charts (the
 * dashboard) draws before the chart library (about 65 kB compressed) has arrived. Until it
 * has, each chart is an empty placeholder filling its frame's canvas box, whose size the frame
 * sets, so nothing moves when the chart appears.
 */
const charts = () => import('./charts')

/** Starts loading the chart library now, e.g. when a screen with charts mounts, while its data loads. */
export function preloadCharts(): void {
  void charts().catch(() => undefined)
}

function lazyChart<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Chart = lazyComponent(load)
  function LazyChart(props: P) {
    return (
      <Suspense fallback={<div className="chart-frame__placeholder" aria-hidden="true" />}>
        <Chart {...props} />
      </Suspense>
    )
  }
  return LazyChart
}

type PropsOf<C extends (props: never) => unknown> = Parameters<C>[0] & object

export const Bar = lazyChart<PropsOf<typeof BarChart>>(() => charts().then((m) => m.Bar))
export const Line = lazyChart<PropsOf<typeof LineChart>>(() => charts().then((m) => m.Line))
export const Doughnut = lazyChart<PropsOf<typeof DoughnutChart>>(() => charts().then((m) => m.Doughnut))
