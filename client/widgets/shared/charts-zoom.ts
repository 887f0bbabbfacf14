import { Chart as ChartJS, Decimation, TimeScale } from 'chart.js'
import 'chartjs-adapter-date-fns'
import zoomPlugin from 'chartjs-plugin-zoom'
import './charts'

/**
 * The chart set-up's time axis and zoom (see ./charts.ts): the date adapter, the zoom plugin
 * and its gesture library, registered once, only by the charts that zoom or plot dates.
 */
ChartJS.register(TimeScale, zoomPlugin, Decimation)

/**
 * A year of quarter-hour prices is 35 000 points: drawn as they are, every hover and zoom redraws
 * them all. Min-max decimation keeps each pixel column's first, last, lowest and highest values,
 * so peaks and troughs stay where they are. It needs the data already parsed (`{ x: ms, y }`
 * points, x ascending): the series that use it say so with `DECIMATED_DATASET`.
 */
export const DECIMATION_OPTIONS = { enabled: true, algorithm: 'min-max' as const }
export const DECIMATED_DATASET = { parsing: false as const, normalized: true }

/** Zoom and pan with the wheel, a pinch or a drag (and a reset button in the frame). */
export const ZOOM_OPTIONS = {
  zoom: { wheel: { enabled: true }, pinch: { enabled: true }, drag: { enabled: false }, mode: 'x' as const },
  pan: { enabled: true, mode: 'x' as const },
}
