import { Button } from 'primereact/button'
import { useState } from 'react'
import { ErrorView } from '../../app/ErrorPage'
import './error-preview.css'

const LABELS: Record<number, string> = {
  401: '401 · sin permiso',
  403: '403 · acción denegada',
  404: '404 · no encontrada',
  500: '500 · error del servidor',
  503: '503 · no disponible',
}

/**
 * A live preview of the portal's real error page (`ErrorView`), one status at a time, beside the
 * explanation of each situation. Props: `statuses` (default 404, 401, 500), `title`.
 */
export default function ErrorPreview({ statuses, title }: { statuses?: unknown; title?: unknown }) {
  const list = Array.isArray(statuses) ? statuses.filter((s): s is number => typeof s === 'number' && s >= 100 && s <= 599) : []
  const options = list.length ? list : [404, 401, 500]
  const [status, setStatus] = useState<number>(options[0]!)
  const heading = typeof title === 'string' && title ? title : 'Vista previa'
  return (
    <section className="card error-preview" aria-labelledby="error-preview-title">
      <div className="error-preview__header">
        <h2 id="error-preview-title" className="error-preview__title">
          {heading}
        </h2>
        <div className="error-preview__choices" role="group" aria-label="Estado que se previsualiza">
          {options.map((s) => (
            <Button key={s} type="button" size="small" label={LABELS[s] ?? String(s)} outlined={s !== status} aria-pressed={s === status} onClick={() => setStatus(s)} />
          ))}
        </div>
      </div>
      <p className="error-preview__caption" id="error-preview-caption">
        Así ve el usuario la página de error con el estado {status}. Es el mismo componente que muestra el portal; el botón lleva al inicio (o al inicio de sesión si
        no hay sesión).
      </p>
      <div className="error-preview__frame" aria-describedby="error-preview-caption" role="group" aria-label={`Vista previa del estado ${status}`}>
        <ErrorView status={status} />
      </div>
    </section>
  )
}
