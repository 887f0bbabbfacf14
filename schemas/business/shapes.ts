import Type from 'typebox'
import { DashboardSummary } from '../dashboard'
import { SessionUser } from '../session-user'
import { ApiKey, ApiScope, ApiUserDetail, ApiUserRow, Group, Permission, PermissionRef, Preference, UserDetail, UserRow } from './access'
import { AgentDetail, AgentNode, AgentRow, LinkableUser } from './agents'
import { CalculationAnswer, SavingsPeriod } from './battery'
import { ComparisonRow, SavedComparison } from './comparator'
import { Client, ContractDetail, ContractDocument, ContractRow, CupsActive, KleenCheck, MonthCount, Penalty, StateCount } from './contracts'
import { FixedPrice, IndexSeries, LastDate, OmieSeries, SurplusSeries } from './energy'
import { FolderTree, FolderView } from './files'
import { Invoice, InvoiceDetail } from './invoices'
import { ProvinceRow } from './map'
import { Paged } from './paged'
import { RenewalPage, RenewalSubstate } from './renewals'
import { SipsConsumption, SipsInfo, SipsList, SipsRaw } from './sips'
import { CatalogueEntry, ContractState, CupsCheck, IdentifierCheck, Tariff, UserGroupOption } from './utility'

/**
 * The business shapes by name: what a catalogue call's `shape` names (schemas/catalogue/*.json).
 * The catalogue loader refuses a name missing here; the contract test of the answers
 * (tests/contract/answers.test.ts) checks the reference API's answer of every call against
 * the schema its name gives.
 */
export const ANSWER_SHAPES = {
  /** What the BFF reads from the upstream's session (tolerant of a real upstream's extra fields). */
  'access.session': SessionUser,
  'access.userPage': Paged(UserRow),
  'access.user': UserDetail,
  'access.groups': Type.Array(Group),
  'access.permissions': Type.Array(Permission),
  'access.permissionRefs': Type.Array(PermissionRef),
  'access.apiUserPage': Paged(ApiUserRow),
  'access.apiUser': ApiUserDetail,
  'access.apiKeys': Type.Array(ApiKey),
  'access.apiScopes': Type.Array(ApiScope),
  'access.preferences': Type.Array(Preference),
  'agents.page': Paged(AgentRow),
  'agents.detail': AgentDetail,
  'agents.tree': AgentNode,
  'agents.trees': Type.Array(AgentNode),
  'agents.linkableUsers': Type.Array(LinkableUser),
  'battery.calculation': CalculationAnswer,
  'battery.savingPeriods': Type.Array(SavingsPeriod),
  'comparator.page': Paged(ComparisonRow),
  'comparator.saved': SavedComparison,
  'contracts.page': Paged(ContractRow),
  'contracts.detail': ContractDetail,
  'contracts.documents': Type.Array(ContractDocument),
  /** Per state, or per province with `agrupar=provincia` (the map). */
  'contracts.situation': Type.Union([Type.Array(StateCount), Type.Array(ProvinceRow)]),
  'contracts.perMonth': Type.Array(MonthCount),
  'contracts.cupsActive': CupsActive,
  'contracts.kleenCheck': KleenCheck,
  'contracts.penalty': Penalty,
  'contracts.client': Client,
  'dashboard.summary': DashboardSummary,
  'energy.omie': OmieSeries,
  'energy.index': IndexSeries,
  'energy.surplus': SurplusSeries,
  'energy.lastDate': LastDate,
  'energy.fixedPrice': FixedPrice,
  'files.tree': FolderTree,
  'files.folder': FolderView,
  'invoices.page': Paged(Invoice),
  'invoices.list': Type.Array(Invoice),
  'invoices.detail': InvoiceDetail,
  'renewals.page': RenewalPage,
  'renewals.substates': Type.Array(RenewalSubstate),
  'sips.info': SipsInfo,
  'sips.raw': SipsRaw,
  'sips.list': SipsList,
  'sips.consumption': SipsConsumption,
  'utility.entries': Type.Array(CatalogueEntry),
  'utility.tariffs': Type.Array(Tariff),
  'utility.contractStates': Type.Array(ContractState),
  'utility.userGroupOptions': Type.Array(UserGroupOption),
  'validators.identifier': IdentifierCheck,
  'validators.cups': CupsCheck,
} satisfies Record<string, Type.TSchema>

export type ShapeName = keyof typeof ANSWER_SHAPES

export function isShapeName(name: string): name is ShapeName {
  return Object.hasOwn(ANSWER_SHAPES, name)
}
