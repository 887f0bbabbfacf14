import { Component, type ReactNode } from 'react'
import { useLocation } from 'react-router-dom'
import { ErrorView } from '../ui/ErrorView'
import { isStaleChunkError } from '../api/render-errors'
import { reloadTo } from './build-check'

/** Unhandled application errors are shown on the error page (spec §8); a stale build reloads once. */
export function AppErrorBoundary({ children }: { children: ReactNode }) {
  const location = useLocation()
  return <ErrorCatcher path={`${location.pathname}${location.search}`}>{children}</ErrorCatcher>
}

interface CatcherState {
  error: unknown
  failed: boolean
  /** The path the state belongs to: navigating elsewhere leaves the error page. */
  path: string
}

class ErrorCatcher extends Component<{ path: string; children: ReactNode }, CatcherState> {
  override state: CatcherState = { error: undefined, failed: false, path: this.props.path }

  static getDerivedStateFromError(error: unknown): Partial<CatcherState> {
    return { error, failed: true }
  }

  static getDerivedStateFromProps(props: { path: string }, state: CatcherState): Partial<CatcherState> | null {
    return props.path === state.path ? null : { path: props.path, failed: false, error: undefined }
  }

  override render() {
    if (!this.state.failed) return this.props.children
    return <AppErrorPage error={this.state.error} path={this.props.path} />
  }
}

function AppErrorPage({ error, path }: { error: unknown; path: string }) {
  if (isStaleChunkError(error) && reloadTo(path)) return null
  const message = error instanceof Error ? error.message : undefined
  console.error(error)
  return (
    <div className="auth-layout">
      <main className="auth-card" id="main">
        <ErrorView status={500} description={message} />
      </main>
    </div>
  )
}
