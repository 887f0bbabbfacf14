import { Component, type ReactNode } from 'react'
import { reportRenderError } from '../api/render-errors'

interface Props {
  screenId: string
  /** The screen object as fetched: it knows the version the BFF served. */
  screen: object
  children: ReactNode
}

/**
 * Reports a screen that fails to render to the BFF (which falls back to the last good version
 * once enough users fail on it), then hands the error on to the app's boundary, which shows it.
 */
export class RenderErrorReporter extends Component<Props, { failed: boolean; error: unknown; reported: boolean }> {
  override state = { failed: false, error: undefined as unknown, reported: false }

  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error }
  }

  override componentDidCatch(error: unknown) {
    reportRenderError(this.props.screenId, this.props.screen, error)
    this.setState({ reported: true })
  }

  override render() {
    if (this.state.failed && this.state.reported) throw this.state.error
    return this.state.failed ? null : this.props.children
  }
}
