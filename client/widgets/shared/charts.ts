import { ArcElement, BarElement, CategoryScale, Chart as ChartJS, Filler, Legend, LinearScale, LineElement, PointElement, Title, Tooltip } from 'chart.js'

/**
 * The one chart set-up of the portal (Chart.js): components registered once. Widgets take their
 * chart components from here (or, drawn before the library has loaded, from ./lazy-charts.tsx),
 * never register Chart.js pieces themselves; colours and shared options are in
 * ./chart-theme.ts. Time axes and zoom (date adapter, zoom plugin, hammer.js: a third of the
 * charts' code) are in ./charts-zoom.ts, for the charts that need them.
 */
ChartJS.register(CategoryScale, LinearScale, PointElement, LineElement, BarElement, ArcElement, Filler, Tooltip, Legend, Title)

export { Bar, Doughnut, Line } from 'react-chartjs-2'
