import { Link } from 'react-router-dom'
import type { LinksNode } from '../../../schemas/screen'
import { useI18n } from '../../i18n/i18n'

/** Cards leading to other pages (section index pages); the BFF already removed those the user may not open. */
export function LinksNodeView({ node }: { node: LinksNode }) {
  const { l } = useI18n()
  return (
    <ul className="link-cards">
      {node.items.map((item) => (
        <li key={item.to}>
          <Link to={item.to} className="link-card">
            {item.icon && <i className={`${item.icon} link-card__icon`} aria-hidden="true" />}
            <span className="link-card__label">{l(item.label)}</span>
            {item.description && <span className="link-card__description">{l(item.description)}</span>}
          </Link>
        </li>
      ))}
    </ul>
  )
}
