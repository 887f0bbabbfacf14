import { Chart as ChartJS, TimeScale } from 'chart.js'
import 'chartjs-adapter-date-fns'
import zoomPlugin from 'chartjs-plugin-zoom'
import './charts'

/**
 * The chart set-up's time axis and zoom (see ./charts.ts): the date adapter, the zoom plugin
 * and its gesture library, registered once, only by the charts that zoom or plot dates.
 */
ChartJS.register(TimeScale, zoomPlugin)

/** Zoom and pan with the wheel, a pinch or a drag (and a reset button in the frame). */
export const ZOOM_OPTIONS = {
  zoom: { wheel: { enabled: true }, pinch: { enabled: true }, drag: { enabled: false }, mode: 'x' as const },
  pan: { enabled: true, mode: 'x' as const },
}
