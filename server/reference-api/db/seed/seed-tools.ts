import type Database from 'better-sqlite3'
import { compararOfertas, guardarComparativa } from '../../domain/comparator'
import { porPeriodo } from '../../domain/contract-rules'
import { tarifaById } from '../../lib/catalogos'
import type { Random } from '../../lib/random'
import type { ComparisonInput } from '../../../../schemas/business/comparator'

/**
 * The battery catalogue (5–15 kWh usable, installed prices with VAT) and, for the demo admin in
 * every brand, three saved comparisons. Fixed data: nothing here draws from the shared random
 * stream, so the sections seeded after this one do not change.
 */
const BATERIAS = [
  // modelo, fabricante, capacidad útil kWh, eficiencia, llenado medio, precio €, garantía años
  ['LUNA2000-5-S0', 'Huawei', 5, 0.9, 0.75, 4000, 10],
  ['Battery-Box Premium HVS 7.7', 'BYD', 7.68, 0.92, 0.7, 5300, 10],
  ['Force H2 10.65', 'Pylontech', 9.6, 0.93, 0.65, 6400, 10],
  ['T-BAT H 11.6', 'SolaX', 11.5, 0.94, 0.62, 7300, 10],
  ['Powerwall 3', 'Tesla', 13.5, 0.89, 0.58, 8900, 10],
  ['LUNA2000-15-S0', 'Huawei', 15, 0.95, 0.55, 9500, 10],
] as const

const p = (...values: (number | null)[]) => porPeriodo(values)

/** Demo comparisons: name, client, tariff, powers, consumption by period, current prices; days ago. */
const COMPARATIVAS: readonly (readonly [ComparisonInput, number])[] = [
  [
    {
      Nombre: 'Vivienda familia Ruiz',
      Cliente: 'Lucía Ruiz Fernández',
      TarifaId: 1,
      PotenciasKw: p(4.6, 4.6),
      ConsumoAnualKwh: p(1050, 950, 1500),
      PreciosActuales: { EnergiaKwh: p(0.2021, 0.1589, 0.1245), PotenciaKwDia: p(0.1084, 0.0465) },
    },
    40,
  ],
  [
    {
      Nombre: 'Panadería El Horno',
      Cliente: 'Panadería El Horno S.L.',
      TarifaId: 1,
      PotenciasKw: p(9.9, 9.9),
      ConsumoAnualKwh: p(3400, 3100, 2900),
      PreciosActuales: { EnergiaKwh: p(0.175, 0.175, 0.175), PotenciaKwDia: p(0.0959, 0.0121) },
    },
    12,
  ],
  [
    {
      Nombre: 'Nave Polígono Norte',
      Cliente: 'Talleres Norte S.A.',
      TarifaId: 2,
      PotenciasKw: p(25, 25, 25, 25, 25, 40),
      ConsumoAnualKwh: p(9000, 12000, 8000, 9000, 10000, 30000),
      PreciosActuales: { EnergiaKwh: p(0.178, 0.165, 0.151, 0.142, 0.132, 0.118), PotenciaKwDia: p(0.0451, 0.0261, 0.0121, 0.0105, 0.0076, 0.0045) },
    },
    3,
  ],
]

export function seedTools(db: Database.Database, _rnd: Random, today: Date): void {
  const insertBateria = db.prepare(
    'INSERT INTO baterias (modelo, fabricante, capacidad_util_kwh, eficiencia, llenado_medio, precio_eur, garantia_anios) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
  for (const b of BATERIAS) insertBateria.run(...b)

  const admin = db.prepare("SELECT id FROM usuarios WHERE email = 'admin@portal.test'").get() as { id: number } | undefined
  if (!admin) return
  const day = today.toISOString().slice(0, 10)
  const marcas = db.prepare('SELECT id, dominio, nombre FROM marcas ORDER BY id').all() as { id: number; dominio: string; nombre: string }[]
  for (const marca of marcas) {
    for (const [entrada, daysAgo] of COMPARATIVAS) {
      const tarifa = tarifaById.get(entrada.TarifaId)!
      const fecha = new Date(today.getTime() - daysAgo * 86_400_000 - 3_600_000 * (daysAgo % 7)).toISOString().replace(/\.\d{3}Z$/, 'Z')
      const resultado = compararOfertas(entrada, tarifa, marca, day)
      guardarComparativa(db, { marcaId: marca.id, usuarioId: admin.id, entrada, resultado, tarifa, fecha })
    }
  }
}
