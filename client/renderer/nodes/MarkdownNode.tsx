import { lazy, Suspense } from 'react'
import type { MarkdownNode } from '../../../schemas/screen'
import { useI18n } from '../../i18n/i18n'

const Markdown = lazy(() => import('./MarkdownView'))

/** Markdown text (documentation); the markdown library loads only where it is used. */
export function MarkdownNodeView({ node }: { node: MarkdownNode }) {
  const { l } = useI18n()
  return (
    <Suspense fallback={<div className="markdown-body" aria-busy="true" />}>
      <Markdown text={l(node.content)} />
    </Suspense>
  )
}
