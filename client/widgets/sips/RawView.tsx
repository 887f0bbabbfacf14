import { useQuery } from '@tanstack/react-query'
import { SelectButton } from 'primereact/selectbutton'
import { useState } from 'react'
import { api } from '../../api/client'

/** Units of the national system's raw fields (W and Wh), shown next to the values. */
export function unitOf(key: string): string {
  if (/W(P\d)?$/.test(key) && /potencia|valorDerechos/i.test(key)) return ' W'
  if (/Wh(P\d)?$/.test(key)) return ' Wh'
  if (/Euros$/.test(key)) return ' €'
  return ''
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') return value.toLocaleString('es-ES', { maximumFractionDigits: 3 })
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

const VIEWS = [
  { label: 'Campos', value: 'kv' },
  { label: 'JSON', value: 'json' },
]

/** The raw SIPS record (the national system's own field names, W/Wh), collapsed by default. */
export function RawView({ cups }: { cups: string }) {
  const [open, setOpen] = useState(false)
  const [view, setView] = useState<'kv' | 'json'>('kv')
  const raw = useQuery({
    queryKey: ['sips', 'raw', cups],
    queryFn: ({ signal }) => api.get<Record<string, unknown>>('/api/sips/info/raw', { params: { cups }, signal }),
    // Titled and worded by the endpoint catalogue (spec §8).
    meta: { reportErrors: true },
    staleTime: 5 * 60_000,
  })
  return (
    <details className="card sips-raw" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary className="sips-raw__summary">Datos en bruto del SIPS (nombres de campo del sistema nacional; potencias en W, energía en Wh)</summary>
      {open && (
        <div className="sips-raw__body">
          {raw.isPending && <p className="sips-muted">Cargando…</p>}
          {raw.isError && <p className="sips-muted">No se han podido obtener los datos en bruto.</p>}
          {raw.data && (
            <>
              <SelectButton value={view} options={VIEWS} onChange={(e) => e.value && setView(e.value as 'kv' | 'json')} allowEmpty={false} aria-label="Formato de los datos en bruto" className="sips-raw__switch" />
              {view === 'json' ? (
                <pre className="sips-raw__json" tabIndex={0} aria-label="Registro SIPS en JSON">
                  {JSON.stringify(raw.data, null, 2)}
                </pre>
              ) : (
                <div className="sips-raw__scroll" tabIndex={0} role="region" aria-label="Campos del registro SIPS">
                  <table className="simple-table sips-raw__table">
                    <caption className="p-sr-only">Campos del registro SIPS</caption>
                    <thead>
                      <tr>
                        <th scope="col">Campo</th>
                        <th scope="col">Valor</th>
                      </tr>
                    </thead>
                    <tbody>
                      {Object.entries(raw.data).map(([k, v]) => (
                        <tr key={k}>
                          <th scope="row" className="code-cell">
                            {k}
                          </th>
                          <td>
                            {show(v)}
                            {typeof v === 'number' ? unitOf(k) : ''}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </>
          )}
        </div>
      )}
    </details>
  )
}
