import { Button } from 'primereact/button'
import { Dialog } from 'primereact/dialog'
import type { ScreenNode } from '../../../schemas/screen'
import { useMessages } from '../../i18n/i18n'
import { RenderContext } from '../context'
import { NodeList } from '../node-renderer'
import type { TemplateContext } from '../template'
import { useReturnFocus } from '../../ui/return-focus'
import { messages } from './messages'

/** Nodes shown in a dialog with the action's context (a row's hierarchy, a detail). */
export function ViewDialog({ title, width, ctx, nodes, onClose, opener }: { title: string; width?: string; ctx: TemplateContext; nodes: ScreenNode[]; onClose: () => void; opener?: () => HTMLElement | null }) {
  const t = useMessages(messages)
  useReturnFocus(opener)
  return (
    <Dialog
      header={title}
      visible
      modal
      onHide={onClose}
      style={{ width: width ?? '40vw' }}
      breakpoints={{ '1200px': '60vw', '960px': '80vw', '641px': '95vw' }}
      draggable={false}
      footer={<Button type="button" label={t('dialog.close')} onClick={onClose} />}
    >
      <RenderContext value={ctx}>
        <NodeList nodes={nodes} />
      </RenderContext>
    </Dialog>
  )
}
