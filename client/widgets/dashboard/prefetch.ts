// The dashboard's init step (spec §2: "/" runs one before the dashboard): see ./queries.ts.
export { prefetchDashboard as default } from './queries'
