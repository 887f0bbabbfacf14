import type { ApprovalPolicies, PolicyLookup } from '../../schemas/approval'

/** Permission ids to their codes (`GESTORACCESS`). */
const PERMISSION_CODES: PolicyLookup = { call: 'permission.list', key: 'Id', field: 'NombreNormalizado' }
/** Group ids to the codes of the permissions the group holds. */
const GROUP_PERMISSIONS: PolicyLookup = { call: 'group.list', key: 'Id', field: 'Permisos[].NombreNormalizado' }

/**
 * The shipped policies: what a second person approves until admins change them. A policy naming
 * a call the catalogue does not hold (yet) waits dormant and applies once the call is catalogued.
 */
export const DEFAULT_POLICIES: ApprovalPolicies = [
  {
    id: 'contract-iban-active',
    label: { es: 'Cambio del IBAN de un contrato activo', en: 'IBAN change on an active contract' },
    calls: ['contract.update'],
    when: { all: [{ value: 'record.Estado', in: ['activo'] }, { any: [{ changed: 'Iban' }, { changed: 'Cliente.Iban' }] }] },
  },
  {
    id: 'contract-end',
    label: { es: 'Paso de un contrato a baja o anulado', en: 'Contract set to ended or cancelled' },
    calls: ['contract.end'],
    // A contract already in that state is refused by the upstream at once: nothing to approve.
    when: { all: [{ value: 'body.Estado', in: ['baja', 'anulado'] }, { changed: 'Estado' }] },
  },
  {
    id: 'renewal-baja',
    label: { es: 'Baja solicitada en una renovación', en: 'End of supply requested on a renewal' },
    calls: ['renewal.changeSubstate'],
    // Sub-state 6: «Baja solicitada».
    when: { value: 'body.SubestadoId', in: [6] },
  },
  // One policy per call: each names where its call carries the permission (a body of user ids
  // must never be read as permission ids).
  {
    id: 'grant-gestoraccess',
    label: { es: 'Conceder el permiso GESTORACCESS a un usuario', en: 'Granting the GESTORACCESS permission to a user' },
    calls: ['permission.addPermissionsToUser'],
    when: { value: 'body[]', lookup: PERMISSION_CODES, in: ['GESTORACCESS'] },
  },
  {
    id: 'grant-gestoraccess-users',
    label: { es: 'Conceder el permiso GESTORACCESS a varios usuarios', en: 'Granting the GESTORACCESS permission to several users' },
    calls: ['permission.addToUsers'],
    when: { value: 'query.permiso', lookup: PERMISSION_CODES, in: ['GESTORACCESS'] },
  },
  {
    id: 'grant-gestoraccess-to-group',
    label: { es: 'Dar el permiso GESTORACCESS a un grupo', en: 'Giving a group the GESTORACCESS permission' },
    calls: ['group.addPermission'],
    when: { value: 'body.PermisoId', lookup: PERMISSION_CODES, in: ['GESTORACCESS'] },
  },
  {
    id: 'grant-gestoraccess-group',
    label: { es: 'Añadir a un grupo que tiene GESTORACCESS', en: 'Adding to a group that holds GESTORACCESS' },
    calls: ['user.addGroups'],
    when: { value: ['query.userGroup', 'body[]'], lookup: GROUP_PERMISSIONS, in: ['GESTORACCESS'] },
  },
  {
    id: 'grant-gestoraccess-group-members',
    label: { es: 'Añadir usuarios a un grupo que tiene GESTORACCESS', en: 'Adding users to a group that holds GESTORACCESS' },
    calls: ['user.addGroupToUsers'],
    when: { value: 'query.userGroup', lookup: GROUP_PERMISSIONS, in: ['GESTORACCESS'] },
  },
  {
    id: 'grant-gestoraccess-new-user',
    label: { es: 'Alta de un usuario en un grupo que tiene GESTORACCESS', en: 'New user in a group that holds GESTORACCESS' },
    calls: ['user.register'],
    when: { value: 'body.Grupos[]', lookup: GROUP_PERMISSIONS, in: ['GESTORACCESS'] },
  },
  {
    id: 'apikey-generate',
    label: { es: 'Generar una clave de API', en: 'Generating an API key' },
    calls: ['apiKey.generate'],
  },
]
