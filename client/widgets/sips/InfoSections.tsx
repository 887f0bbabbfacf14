import type { ReactNode } from 'react'
import { useMessages } from '../../i18n/i18n'
import { formatValue } from '../../ui/format'
import { messages, type MessageKey as Key } from './messages'
import { PERIODS } from './sips-logic'
import type { SipsInfo } from '../../../schemas/business/sips'

type Item = { label: string; value: ReactNode; hint?: string }

const power = (v: number | null | undefined) => formatValue(v, 'power')
const energy = (v: number | null | undefined) => formatValue(v, 'energy')
const date = (v: string | null | undefined) => formatValue(v, 'date')
const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v))

const FASES: Record<string, Key> = { monofasico: 'info.phases.single', trifasico: 'info.phases.three' }
const PROPIEDAD: Record<string, Key> = { distribuidora: 'info.meterOwner.distributor', titular: 'info.meterOwner.holder' }
const PERFIL: Record<string, Key> = { Pa: 'info.profile.Pa', Pb: 'info.profile.Pb', Pc: 'info.profile.Pc', Pd: 'info.profile.Pd' }

function Flag({ value, yes, no, good }: { value: boolean | null | undefined; yes?: string; no?: string; good?: boolean }) {
  const t = useMessages(messages)
  if (value === null || value === undefined) return <>—</>
  // `good`: which answer is the favourable one (colours it), when the question has one.
  const favourable = good === undefined ? null : value === good
  const cls = favourable === null ? 'sips-flag' : favourable ? 'sips-flag sips-flag--good' : 'sips-flag sips-flag--bad'
  return (
    <span className={cls}>
      <i className={value ? 'pi pi-check-circle' : 'pi pi-times-circle'} aria-hidden="true" /> {value ? (yes ?? t('info.yes')) : (no ?? t('info.no'))}
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
  const t = useMessages(messages)
  const coded = (map: Record<string, Key>, code: string) => (map[code] ? t(map[code]) : code)
  const powers = PERIODS.filter((p) => typeof info.PotenciasContratadasKw?.[p] === 'number')
  const consumption = PERIODS.filter((p) => typeof info.ConsumoAnualKwh?.[p] === 'number')
  const supply: Item[] = [
    { label: 'CUPS', value: <span className="code-cell">{info.Cups}</span> },
    { label: t('info.distributor'), value: info.Distribuidora ? `${info.Distribuidora.Nombre} (${info.Distribuidora.Codigo})` : '—' },
    { label: t('info.municipality'), value: text(info.Municipio) },
    { label: t('info.province'), value: info.Provincia ? `${info.Provincia}${info.ProvinciaCodigo ? ` (${info.ProvinciaCodigo})` : ''}` : '—' },
    { label: t('info.postalCode'), value: text(info.CodigoPostal) },
    { label: t('info.tariff'), value: info.Tarifa ? `${info.Tarifa.Codigo} (ATR ${info.Tarifa.CodigoAtr})` : '—' },
    { label: t('info.voltage'), value: info.Tension ? `${info.Tension}${typeof info.TensionV === 'number' ? ` · ${formatValue(info.TensionV, 'integer')} V` : ''}` : '—' },
    { label: t('info.maxPowerBie'), value: power(info.PotenciaMaximaBieKw) },
    { label: t('info.maxPowerApm'), value: power(info.PotenciaMaximaApmKw) },
    { label: 'CNAE', value: text(info.Cnae) },
  ]
  const contract: Item[] = [
    ...powers.map((p) => ({ label: t('info.contractedPower', { p }), value: power(info.PotenciasContratadasKw[p]) })),
    ...consumption.map((p) => ({ label: t('info.annualConsumption', { p }), value: energy(info.ConsumoAnualKwh[p]) })),
    { label: t('info.annualTotal'), value: <strong>{energy(info.ConsumoAnualKwh?.Total)}</strong>, hint: t('info.last12') },
    { label: t('info.supplyStart'), value: date(info.FechaAltaSuministro) },
    { label: t('info.lastContractChange'), value: date(info.FechaUltimoMovimientoContrato) },
    { label: t('info.lastSwitch'), value: date(info.FechaUltimoCambioComercializador) },
    { label: t('info.profile'), value: info.PerfilConsumo ? coded(PERFIL, info.PerfilConsumo) : '—' },
    { label: t('info.deposit'), value: formatValue(info.DepositoGarantiaEur, 'money') },
  ]
  const meter: Item[] = [
    { label: t('info.remote'), value: <Flag value={info.Telegestionado} /> },
    { label: t('info.phases'), value: info.Fases ? coded(FASES, info.Fases) : '—' },
    { label: t('info.meterOwner'), value: info.PropiedadContador ? coded(PROPIEDAD, info.PropiedadContador) : '—' },
    { label: t('info.timeDiscrimination'), value: text(info.DiscriminacionHoraria) },
    { label: t('info.lastReading'), value: date(info.FechaUltimaLectura) },
  ]
  const flags: Item[] = [
    { label: t('info.contractable'), value: <Flag value={info.Contratable} good /> },
    { label: t('info.unpaid'), value: <Flag value={info.Impagos} yes={t('info.unpaid.yes')} no={t('info.unpaid.no')} good={false} /> },
    { label: t('info.primaryHome'), value: <Flag value={info.ViviendaHabitual} /> },
    { label: t('info.socialBonus'), value: <Flag value={info.BonoSocial} /> },
    { label: t('info.selfConsumption'), value: info.CodigoAutoconsumo ? t('info.selfConsumption.yes', { code: info.CodigoAutoconsumo }) : t('info.selfConsumption.no') },
  ]
  return (
    <div className="sips-sections">
      <Section title={t('info.section.supply')} icon="map-marker" items={supply} />
      <Section title={t('info.section.contract')} icon="file" items={contract} />
      <Section title={t('info.section.meter')} icon="gauge" items={meter} />
      <Section title={t('info.section.flags')} icon="flag" items={flags} />
    </div>
  )
}
