import Type from 'typebox'
import { CLOSED } from './common'

/**
 * The province map (spec §7, `GET api/contract/situacion-contratos?agrupar=provincia`): the
 * caller's contracts by the province of their supply point, every province (zeros included).
 */
export const ProvinceRow = Type.Object(
  {
    ProvinciaId: Type.Integer(),
    Provincia: Type.String(),
    /** Contracts in any state. */
    Contratos: Type.Integer({ minimum: 0 }),
    /** Contracts supplying (`activo`, `modificacion_en_curso`). */
    ContratosActivos: Type.Integer({ minimum: 0 }),
    /** Distinct supply points with a contract. */
    PuntosSuministro: Type.Integer({ minimum: 0 }),
    /** Estimated annual consumption of the supplying contracts. */
    ConsumoAnualKwh: Type.Number({ minimum: 0 }),
  },
  CLOSED,
)
export type ProvinceRow = Type.Static<typeof ProvinceRow>
