import { Button } from 'primereact/button'
import { Message } from 'primereact/message'
import { useMemo } from 'react'
import type { ScreenFile, ScreenNode } from '../../../../schemas/screen'
import { useI18n, useMessages } from '../../../i18n/i18n'
import { schemaProblem } from '../schema-check'
import { messages } from './messages'
import { problemPath } from './node-check'
import { structuredEditor } from './node-editors'
import { NodeJsonEditor } from './NodeJsonEditor'
import { itemOfPath, nodeAt, screenOutline, typeName, withNodeAt } from './node-outline'
import { NodeOutline } from './NodeOutline'
import { StructureContext } from './structure-context'
import './structure.css'

/**
 * The studio's «Estructura» tab: every node of any screen, edited one at a time — with a
 * structured editor where its type has one (node-editors.tsx), else as node JSON checked against
 * the whole screen. Edits go to the studio's draft like the other tabs'. While the screen fails
 * its schema, the first problem is named with its node and JSON path, in Spanish.
 */
export function StructureEditor(props: { screen: ScreenFile; selected: string; onSelect: (pointer: string) => void; onChange: (next: ScreenFile) => void }) {
  const { screen, selected, onSelect, onChange } = props
  const t = useMessages(messages)
  const { lang } = useI18n()
  const outline = useMemo(() => screenOutline(screen, lang), [screen, lang])
  // A pointer an edit left behind (a removed action's dialog…) falls back to the root.
  const item = outline.find((i) => i.pointer === selected) ?? outline[0]!
  const node = nodeAt(screen, item.pointer)!
  const problem = useMemo(() => schemaProblem(screen), [screen])
  const problemItem = problem ? itemOfPath(outline, problemPath(problem)) : null
  const scope = useMemo(() => ({ screen, pointer: item.pointer }), [screen, item.pointer])
  const change = (next: ScreenNode) => onChange(withNodeAt(screen, item.pointer, next))

  return (
    <div className="structure">
      <p className="screen-studio__help">{t('outline.help')}</p>
      {problem && (
        <Message
          severity="error"
          className="screen-studio__message"
          content={
            <span>
              {t('problem', { node: problemItem ? `${typeName(problemItem.type, lang)} «${problemItem.label}»` : '/', error: problem })}{' '}
              {problemItem && problemItem.pointer !== item.pointer && <Button type="button" label={t('problem.go')} text size="small" onClick={() => onSelect(problemItem.pointer)} />}
            </span>
          }
        />
      )}
      <div className="structure__layout">
        <NodeOutline items={outline} selected={item.pointer} onSelect={onSelect} />
        <section className="structure__node" aria-labelledby="structure-node-title">
          <h3 id="structure-node-title" className="structure__node-title">
            {t('node.heading', { type: typeName(node.type, lang), label: item.label })} <code translate="no">{item.pointer}</code>
          </h3>
          {item.place && <p className="screen-studio__help">{item.place}</p>}
          {item.pointer !== selected && <Message severity="info" className="screen-studio__message" text={t('node.gone')} />}
          <StructureContext.Provider value={scope}>
            {structuredEditor(item.pointer, node, change) ?? <NodeJsonEditor key={item.pointer} value={node} pointer={item.pointer} what={item.label} help={t('node.jsonHelp')} rows={24} onChange={(next) => change(next as ScreenNode)} />}
          </StructureContext.Provider>
        </section>
      </div>
    </div>
  )
}
