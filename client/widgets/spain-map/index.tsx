import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { SelectButton } from 'primereact/selectbutton'
import { useId, useMemo, useState, type KeyboardEvent } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { api } from '../../api/client'
import { useScreenPath } from '../../api/screen-path'
import { localized, useI18n, useMessages } from '../../i18n/i18n'
import { formatValue } from '../../ui/format'
import type { LocalizedText } from '../../../schemas/i18n'
import { spainGeometry, type ProvinceShape } from './geo'
import { buildScale, classFill, contractsListUrl, isMeasure, matchProvinces, MEASURES, measureText, provinceLabel, type Measure } from './map-logic'
import type { ProvinceRow } from '../../../schemas/business/map'
import { messages } from './messages'
import './spain-map.css'

const fmt = (n: number) => formatValue(n, 'integer')
const figure = (m: Measure, v: number) => (m === 'ConsumoAnualKwh' ? formatValue(v, 'energy') : fmt(v))

interface Props {
  /** The measure that colours the map at first. */
  measure?: Measure
  /** Measures the user can switch between (the first `measure` when absent). */
  measures?: Measure[]
  /** Heading above the map: a text or `{ es, en }` from the screen JSON. */
  title?: string | LocalizedText
}

/**
 * Spain by province, coloured by a measure of `GET /api/contract/situacion-contratos?agrupar=provincia`
 * (contracts, active contracts, supply points or consumption). Hover or focus a province for its
 * figures; click it (or press Enter) for the contracts list filtered by that province.
 */
export default function SpainMapWidget({ measure: initial = 'Contratos', measures, title }: Props) {
  const id = useId()
  const t = useMessages(messages)
  const { lang } = useI18n()
  const navigate = useNavigate()
  // A province leads to the contracts list, wherever its screen file puts it (none: no links).
  const listPath = useScreenPath()('contratos-listado')
  const provinceUrl = (provincia: string) => (listPath ? contractsListUrl(listPath, provincia) : undefined)
  const provinceLink = (provincia: string) => {
    const to = provinceUrl(provincia)
    return to ? (
      <Link to={to} translate="no">
        {provincia}
      </Link>
    ) : (
      <span translate="no">{provincia}</span>
    )
  }
  const [search, setSearch] = useSearchParams()
  const choices = (measures?.filter(isMeasure) ?? []).length ? measures!.filter(isMeasure) : [initial]
  const fromUrl = search.get('medida')
  const measure: Measure = isMeasure(fromUrl) && choices.includes(fromUrl) ? fromUrl : initial
  const setMeasure = (m: Measure) => {
    const next = new URLSearchParams(search)
    if (m === initial) next.delete('medida')
    else next.set('medida', m)
    setSearch(next, { replace: true })
  }
  const [active, setActive] = useState<string | null>(null)
  const [showTable, setShowTable] = useState(false)

  const query = useQuery({
    queryKey: ['contract', 'situacion-contratos', 'provincia'],
    queryFn: ({ signal }) => api.get<ProvinceRow[]>('/api/contract/situacion-contratos', { params: { agrupar: 'provincia' }, signal }),
    // The map's own title; the message is the endpoint catalogue's for the call.
    meta: { errorArea: t('area') },
    staleTime: 60_000,
  })

  const geometry = spainGeometry()
  const rows = useMemo(() => query.data ?? [], [query.data])
  const matched = useMemo(() => matchProvinces(geometry.provinces, rows), [geometry, rows])
  // oxlint-disable-next-line react-hooks/exhaustive-deps -- fmt reads the interface's language, which `lang` stands for: a switch rebuilds the legend
  const scale = useMemo(() => buildScale(rows.map((r) => r[measure]), 5, fmt), [rows, measure, lang])
  const total = rows.reduce((s, r) => s + r[measure], 0)
  const withValue = rows.filter((r) => r[measure] > 0).length
  const m = MEASURES[measure]
  const activeShape = geometry.provinces.find((p) => p.id === active) ?? null
  const activeRow = active ? matched.get(active) : undefined
  // Beside the province, not over it: to its right, or to its left in the east of the map.
  const tipLeft = !!activeShape && activeShape.centroid[0] > geometry.width * 0.6

  const open = (shape: ProvinceShape) => {
    const row = matched.get(shape.id)
    const to = provinceUrl(row?.Provincia ?? shape.name)
    if (to) navigate(to)
  }
  const onKey = (e: KeyboardEvent, shape: ProvinceShape) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault()
      open(shape)
    } else if (e.key === 'Escape') setActive(null)
  }

  const ranking = [...rows].sort((a, b) => b[measure] - a[measure] || a.Provincia.localeCompare(b.Provincia, 'es'))
  const label = measureText(measure, 'label', lang)
  const heading = title ? localized(title, lang) : t('heading', { measure: label })

  return (
    <section className="spain-map card" aria-labelledby={`${id}-title`}>
      <header className="spain-map__header">
        <div>
          <h2 id={`${id}-title`} className="spain-map__title">
            {heading}
          </h2>
          <p className="spain-map__total">
            {query.data
              ? t('total', {
                  figure: `${figure(measure, total)}${m.unit ? '' : ` ${measureText(measure, total === 1 ? 'one' : 'many', lang)}`}`,
                  n: withValue,
                  total: rows.length,
                })
              : query.isError
                ? t('error')
                : t('loading')}
          </p>
        </div>
        <div className="spain-map__controls">
          {choices.length > 1 && (
            <SelectButton
              value={measure}
              options={choices.map((c) => ({ value: c, label: measureText(c, 'label', lang) }))}
              onChange={(e) => e.value && setMeasure(e.value as Measure)}
              allowEmpty={false}
              aria-label={t('measure')}
            />
          )}
          <Button type="button" size="small" text icon={showTable ? 'pi pi-map' : 'pi pi-table'} label={showTable ? t('showMap') : t('showData')} aria-expanded={showTable} onClick={() => setShowTable(!showTable)} />
        </div>
      </header>

      {showTable ? (
        <div className="spain-map__table">
          <table className="simple-table">
            <caption className="p-sr-only">{heading}</caption>
            <thead>
              <tr>
                <th scope="col">{t('province')}</th>
                <th scope="col">{measureText('Contratos', 'label', lang)}</th>
                <th scope="col">{measureText('ContratosActivos', 'label', lang)}</th>
                <th scope="col">{measureText('PuntosSuministro', 'label', lang)}</th>
                <th scope="col">{measureText('ConsumoAnualKwh', 'label', lang)}</th>
              </tr>
            </thead>
            <tbody>
              {ranking.map((r) => (
                <tr key={r.ProvinciaId}>
                  <th scope="row">
                    {provinceLink(r.Provincia)}
                  </th>
                  <td>{fmt(r.Contratos)}</td>
                  <td>{fmt(r.ContratosActivos)}</td>
                  <td>{fmt(r.PuntosSuministro)}</td>
                  <td>{formatValue(r.ConsumoAnualKwh, 'energy')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <div className="spain-map__body">
          {/* The map is a chart of data: its provinces are named as the API names them. */}
          <div className="spain-map__canvas" translate="no" onMouseLeave={() => setActive(null)}>
            <svg
              viewBox={`0 0 ${geometry.width} ${geometry.height}`}
              className="spain-map__svg"
              role="group"
              aria-label={t('map', { measure: label.toLowerCase() })}
              data-provinces={geometry.provinces.length}
            >
              <rect className="spain-map__inset" x={geometry.inset.x} y={geometry.inset.y} width={geometry.inset.width} height={geometry.inset.height} rx={6} aria-hidden="true" />
              {geometry.provinces.map((shape) => {
                const row = matched.get(shape.id)
                const value = row ? row[measure] : 0
                const fill = query.data ? classFill(scale.classOf(value), scale.classes) : 'var(--surface-ground)'
                return (
                  <g
                    key={shape.id}
                    className="spain-map__province"
                    role="link"
                    tabIndex={0}
                    aria-label={provinceLabel(row?.Provincia ?? shape.name, row, measure, fmt)}
                    data-province={shape.id}
                    onMouseEnter={() => setActive(shape.id)}
                    onFocus={() => setActive(shape.id)}
                    onBlur={() => setActive((a) => (a === shape.id ? null : a))}
                    onClick={() => open(shape)}
                    onKeyDown={(e) => onKey(e, shape)}
                  >
                    <path d={shape.d} style={{ fill }} />
                    {shape.marker && <circle cx={shape.centroid[0]} cy={shape.centroid[1]} r={shape.marker} style={{ fill }} className="spain-map__marker" />}
                  </g>
                )
              })}
              {activeShape && (
                <g className="spain-map__highlight" aria-hidden="true" pointerEvents="none">
                  <path d={activeShape.d} className="spain-map__halo" />
                  <path d={activeShape.d} />
                  {activeShape.marker && <circle cx={activeShape.centroid[0]} cy={activeShape.centroid[1]} r={activeShape.marker} className="spain-map__halo" />}
                  {activeShape.marker && <circle cx={activeShape.centroid[0]} cy={activeShape.centroid[1]} r={activeShape.marker} />}
                </g>
              )}
            </svg>
            {activeShape && (
              <div
                className={`spain-map__tooltip${tipLeft ? ' spain-map__tooltip--left' : ''}`}
                style={{ left: `${((tipLeft ? activeShape.bounds[0][0] : activeShape.bounds[1][0]) / geometry.width) * 100}%`, top: `${(activeShape.centroid[1] / geometry.height) * 100}%` }}
                role="tooltip"
                data-testid="map-tooltip"
              >
                <Figures name={activeRow?.Provincia ?? activeShape.name} row={activeRow} measure={measure} />
              </div>
            )}
          </div>
          <aside className="spain-map__side" aria-label={t('side')}>
            <h3 className="spain-map__side-title">{label}</h3>
            <ul className="spain-map__legend" aria-label={t('legend')}>
              {scale.legend.map((c) => (
                <li key={c.cls}>
                  <span className="spain-map__swatch" style={{ background: classFill(c.cls, scale.classes) }} aria-hidden="true" />
                  {c.label}
                  {m.unit ? ` ${m.unit}` : ''}
                </li>
              ))}
            </ul>
            {ranking.length > 0 && (
              <>
                <h3 className="spain-map__side-title">{measureText(measure, 'top', lang)}</h3>
                <ol className="spain-map__ranking">
                  {ranking.slice(0, 5).map((r) => (
                    <li key={r.ProvinciaId}>
                      {provinceLink(r.Provincia)}
                      <span>{figure(measure, r[measure])}</span>
                    </li>
                  ))}
                </ol>
              </>
            )}
          </aside>
        </div>
      )}
    </section>
  )
}

function Figures({ name, row, measure }: { name: string; row: ProvinceRow | undefined; measure: Measure }) {
  const t = useMessages(messages)
  const items: [Measure, string][] = [
    ['Contratos', measureText('Contratos', 'label')],
    ['ContratosActivos', t('active')],
    ['PuntosSuministro', measureText('PuntosSuministro', 'label')],
    ['ConsumoAnualKwh', measureText('ConsumoAnualKwh', 'label')],
  ]
  return (
    <>
      <strong className="spain-map__tooltip-title" translate="no">{name}</strong>
      <dl>
        {items.map(([k, label]) => (
          <div key={k} className={k === measure ? 'is-measure' : undefined}>
            <dt>{label}</dt>
            <dd>{row ? figure(k, row[k]) : '—'}</dd>
          </div>
        ))}
      </dl>
    </>
  )
}
