import type { ReactNode } from 'react'
import { formatValue } from '../../renderer/format'
import { PERIODS, type SipsInfo } from './sips-logic'

type Item = { label: string; value: ReactNode; hint?: string }

const power = (v: number | null | undefined) => formatValue(v, 'power')
const energy = (v: number | null | undefined) => formatValue(v, 'energy')
const date = (v: string | null | undefined) => formatValue(v, 'date')
const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v))

const FASES: Record<string, string> = { monofasico: 'Monofásico', trifasico: 'Trifásico' }
const PROPIEDAD: Record<string, string> = { distribuidora: 'Distribuidora (alquiler)', titular: 'Titular' }
const PERFIL: Record<string, string> = { Pa: 'Pa (2.0TD, sin discriminación)', Pb: 'Pb (2.0TD, con discriminación)', Pc: 'Pc (3.0TD)', Pd: 'Pd (6.xTD)' }

function Flag({ value, yes = 'Sí', no = 'No', good }: { value: boolean | null | undefined; yes?: string; no?: string; good?: boolean }) {
  if (value === null || value === undefined) return <>—</>
  // `good`: which answer is the favourable one (colours it), when the question has one.
  const favourable = good === undefined ? null : value === good
  const cls = favourable === null ? 'sips-flag' : favourable ? 'sips-flag sips-flag--good' : 'sips-flag sips-flag--bad'
  return (
    <span className={cls}>
      <i className={value ? 'pi pi-check-circle' : 'pi pi-times-circle'} aria-hidden="true" /> {value ? yes : no}
    </span>
  )
}

function Section({ title, icon, items }: { title: string; icon: string; items: Item[] }) {
  return (
    <section className="sips-section card" aria-labelledby={`sips-${icon}`}>
      <h3 id={`sips-${icon}`} className="detail-section__title">
        <i className={`pi pi-${icon}`} aria-hidden="true" /> {title}
      </h3>
      <dl className="detail-grid">
        {items.map((it) => (
          <div key={it.label} className="detail-grid__item">
            <dt>{it.label}</dt>
            <dd>
              {it.value}
              {it.hint && <span className="sips-hint"> {it.hint}</span>}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

/** The record in readable sections, with units: supply point, contract, meter, flags. */
export function InfoSections({ info }: { info: SipsInfo }) {
  const powers = PERIODS.filter((p) => typeof info.PotenciasContratadasKw?.[p] === 'number')
  const consumption = PERIODS.filter((p) => typeof info.ConsumoAnualKwh?.[p] === 'number')
  const supply: Item[] = [
    { label: 'CUPS', value: <span className="code-cell">{info.Cups}</span> },
    { label: 'Distribuidora', value: info.Distribuidora ? `${info.Distribuidora.Nombre} (${info.Distribuidora.Codigo})` : '—' },
    { label: 'Municipio', value: text(info.Municipio) },
    { label: 'Provincia', value: info.Provincia ? `${info.Provincia}${info.ProvinciaCodigo ? ` (${info.ProvinciaCodigo})` : ''}` : '—' },
    { label: 'Código postal', value: text(info.CodigoPostal) },
    { label: 'Tarifa de acceso', value: info.Tarifa ? `${info.Tarifa.Codigo} (ATR ${info.Tarifa.CodigoAtr})` : '—' },
    { label: 'Tensión', value: info.Tension ? `${info.Tension}${typeof info.TensionV === 'number' ? ` · ${formatValue(info.TensionV, 'integer')} V` : ''}` : '—' },
    { label: 'Potencia máxima BIE', value: power(info.PotenciaMaximaBieKw) },
    { label: 'Potencia máxima APM', value: power(info.PotenciaMaximaApmKw) },
    { label: 'CNAE', value: text(info.Cnae) },
  ]
  const contract: Item[] = [
    ...powers.map((p) => ({ label: `Potencia contratada ${p}`, value: power(info.PotenciasContratadasKw[p]) })),
    ...consumption.map((p) => ({ label: `Consumo anual ${p}`, value: energy(info.ConsumoAnualKwh[p]) })),
    { label: 'Consumo anual total', value: <strong>{energy(info.ConsumoAnualKwh?.Total)}</strong>, hint: '(últimos 12 meses)' },
    { label: 'Alta del suministro', value: date(info.FechaAltaSuministro) },
    { label: 'Último movimiento de contrato', value: date(info.FechaUltimoMovimientoContrato) },
    { label: 'Último cambio de comercializadora', value: date(info.FechaUltimoCambioComercializador) },
    { label: 'Perfil de consumo', value: info.PerfilConsumo ? (PERFIL[info.PerfilConsumo] ?? info.PerfilConsumo) : '—' },
    { label: 'Depósito de garantía', value: formatValue(info.DepositoGarantiaEur, 'money') },
  ]
  const meter: Item[] = [
    { label: 'Telegestionado', value: <Flag value={info.Telegestionado} /> },
    { label: 'Fases', value: info.Fases ? (FASES[info.Fases] ?? info.Fases) : '—' },
    { label: 'Propiedad del contador', value: info.PropiedadContador ? (PROPIEDAD[info.PropiedadContador] ?? info.PropiedadContador) : '—' },
    { label: 'Discriminación horaria', value: text(info.DiscriminacionHoraria) },
    { label: 'Última lectura', value: date(info.FechaUltimaLectura) },
  ]
  const flags: Item[] = [
    { label: 'Contratable', value: <Flag value={info.Contratable} good /> },
    { label: 'Impagos', value: <Flag value={info.Impagos} yes="Con impagos" no="Sin impagos" good={false} /> },
    { label: 'Vivienda habitual', value: <Flag value={info.ViviendaHabitual} /> },
    { label: 'Bono social', value: <Flag value={info.BonoSocial} /> },
    { label: 'Autoconsumo', value: info.CodigoAutoconsumo ? `Sí (código ${info.CodigoAutoconsumo})` : 'Sin autoconsumo' },
  ]
  return (
    <div className="sips-sections">
      <Section title="Punto de suministro" icon="map-marker" items={supply} />
      <Section title="Contrato y consumo" icon="file" items={contract} />
      <Section title="Equipo de medida" icon="gauge" items={meter} />
      <Section title="Indicadores" icon="flag" items={flags} />
    </div>
  )
}
