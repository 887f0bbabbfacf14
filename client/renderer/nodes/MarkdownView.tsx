import ReactMarkdown from 'react-markdown'
import { Link } from 'react-router-dom'
import remarkGfm from 'remark-gfm'

/** Renders markdown as React elements (no raw HTML): internal links stay in the app. */
export default function MarkdownView({ text }: { text: string }) {
  return (
    <article className="markdown-body card">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        components={{
          // Code (a sample screen file, a call) is never translated: its texts are what the file holds.
          pre: ({ children }) => <pre translate="no">{children}</pre>,
          a: ({ href, children }) =>
            href?.startsWith('/') ? (
              <Link to={href}>{children}</Link>
            ) : (
              <a href={href} target="_blank" rel="noopener noreferrer">
                {children}
              </a>
            ),
        }}
      >
        {text}
      </ReactMarkdown>
    </article>
  )
}
