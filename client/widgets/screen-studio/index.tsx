import { useSearchParams } from 'react-router-dom'
import { NewScreenForm } from './NewScreenForm'
import { ScreenEditor } from './ScreenEditor'
import { ScreenList } from './ScreenList'
import './screen-studio.css'

/**
 * The screen studio (Gestión de sistema › Pantallas): admins create and change whole screens at
 * runtime, check them as any user, and publish them to a brand, a group or everyone. Which view
 * shows is kept in the URL (`?pantalla=<id>`, `?nueva=1`), so a reload or a shared link keeps it.
 */
export default function ScreenStudio() {
  const [params, setParams] = useSearchParams()
  const open = params.get('pantalla')
  const go = (next: Record<string, string>) => setParams(next)
  if (params.get('nueva') !== null) return <NewScreenForm copyOf={params.get('copia')} onCreated={(id) => go({ pantalla: id })} onCancel={() => go({})} />
  if (open) return <ScreenEditor key={open} id={open} onBack={() => go({})} />
  return <ScreenList onOpen={(id) => go({ pantalla: id })} onNew={(copyOf) => go(copyOf ? { nueva: '1', copia: copyOf } : { nueva: '1' })} />
}
