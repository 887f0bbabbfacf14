import Type from 'typebox'
import { CalculationAnswer, SavingsPeriod } from './battery'
import { FixedPrice, IndexSeries, LastDate, OmieSeries, SurplusSeries } from './energy'
import { FolderTree, FolderView } from './files'
import { ProvinceRow } from './map'
import { SipsConsumption, SipsInfo, SipsList, SipsRaw } from './sips'

/**
 * The business shapes by name: what a catalogue call's `shape` names (schemas/catalogue/*.json).
 * The catalogue loader refuses a name missing here; the contract test of the answers checks
 * the reference API's answer of every call against the schema its name gives.
 */
export const ANSWER_SHAPES = {
  'battery.calculation': CalculationAnswer,
  'battery.savingPeriods': Type.Array(SavingsPeriod),
  'energy.omie': OmieSeries,
  'energy.index': IndexSeries,
  'energy.surplus': SurplusSeries,
  'energy.lastDate': LastDate,
  'energy.fixedPrice': FixedPrice,
  'files.tree': FolderTree,
  'files.folder': FolderView,
  'sips.info': SipsInfo,
  'sips.raw': SipsRaw,
  'sips.list': SipsList,
  'sips.consumption': SipsConsumption,
  'map.provinces': Type.Array(ProvinceRow),
} satisfies Record<string, Type.TSchema>

export type ShapeName = keyof typeof ANSWER_SHAPES

export function isShapeName(name: string): name is ShapeName {
  return Object.hasOwn(ANSWER_SHAPES, name)
}
