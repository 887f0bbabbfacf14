/**
 * Every call of spec §7, as `METHOD path` with `{param}` for path parameters. Screens may only
 * name these (tests/server/screens.test.ts), so the portal never depends on a call the
 * upstream contract lacks.
 */
export const SPEC_CALLS = [
  // Sips
  'GET api/sips/info', 'POST api/sips/info/list', 'GET api/sips/info/raw', 'GET api/sips/info/consumo', 'GET api/sips/export', 'POST api/sips/export/list',
  // Contracts
  'GET api/contract', 'GET api/contract/export', 'GET api/contract/id', 'GET api/contract/documentos', 'GET api/contract/documento',
  'GET api/contract/situacion-contratos', 'GET api/contract/cantidad-por-mes', 'GET api/contract/print', 'POST api/contract/insert-documents',
  'POST api/cups/isactive', 'PUT api/contract/update/situacion', 'PUT api/contract/update/situacion-firma', 'GET api/contract/kleen/is-valid',
  'GET api/contract/kleen/is-valid-withdoc', 'PUT api/contract/kleen/validar', 'GET api/contract/penalizacion', 'POST api/contract/insert',
  // (the edit of the holder, contact and bank data, and the end of a contract (baja, anulado), are issue 16's additions to the contract)
  'PUT api/contract/update', 'PUT api/contract/update/fin',
  // Renewals
  'GET api/renovaciones', 'POST api/renovaciones/renovar', 'POST api/renovaciones/renovacion-descargar', 'GET api/renovaciones/subestados',
  'PUT api/renovaciones/change-subestado', 'GET api/renovaciones/export',
  // Invoices (the detail with its breakdown, `api/facturas/{id}`, is issue 18's addition to the contract)
  'GET api/facturas', 'GET api/facturas/export', 'GET api/facturas/facturas-contrato', 'GET api/facturas/{id}',
  // Utility lists
  'GET api/utility/cnaes', 'GET api/utility/tarifas', 'GET api/utility/tipoaltasolicitud', 'GET api/utility/tipoimpresionfacturas', 'GET api/utility/provincias',
  'GET api/utility/contrato/estados', 'GET api/utility/dashboard/resumen', 'GET api/utility/tipocomision', 'GET api/utility/colectivos', 'GET api/utility/usergroups-options',
  // Agents
  'GET api/agentes', 'GET api/agentes/{id}', 'GET api/agentes/jerarquia/{id}', 'GET api/agentes/jerarquia/loggedUser', 'GET api/agentes/{id}/usuarios/asociables',
  'POST api/agentes/usuarios/asociar', 'POST api/agentes/usuarios/asociar/remove', 'GET api/agentes/export',
  // (the edit of an agent is issue 16's addition to the contract)
  'PUT api/agentes/update',
  // Users
  'GET api/usuarios', 'POST api/usuarios/register', 'PUT api/usuarios/update', 'DELETE api/usuarios/delete', 'PUT api/usuarios/change-pass-admin',
  'PUT api/usuarios/password', 'GET api/usuarios/{id}', 'POST api/usuarios/add-user-group', 'POST api/usuarios/add-user-group-multiple',
  'DELETE api/usuarios/remove-user-group', 'DELETE api/usuarios/remove-user-group-multiple',
  // Password recovery
  'POST api/auth/request-change-password', 'POST api/auth/change-password',
  // Energy
  'GET api/energia/historico-cierre/index', 'GET api/energia/historico-cierre/excedentes', 'GET api/energia/historico-cierre/omie',
  'GET api/energia/historico-cierre/export', 'GET api/energia/ultima-fecha', 'GET api/energia/preciofijo',
  // Preferences
  'GET api/usuarios/preferences', 'DELETE api/usuarios/preference', 'DELETE api/usuarios/preference-all', 'POST api/usuarios/preference',
  // Clients
  'GET api/client', 'GET api/client-id',
  // Validators
  'GET api/validators/iban', 'GET api/validators/nif', 'GET api/validators/cups',
  // Permissions
  'GET api/permission', 'POST api/permission', 'PUT api/permission/add-permisos-to-user', 'DELETE api/permission/remove-permisos',
  'PUT api/permission/add-permiso-to-users-multiple', 'DELETE api/permission/remove-permiso-to-users-multiple',
  // Groups
  'POST api/grupousuarios/create-user-group', 'GET api/grupousuarios/user-groups', 'POST api/grupousuarios/asignar-permiso-a-user-group',
  'DELETE api/grupousuarios/remove-permiso-a-user-group',
  // Files
  'POST api/folder/create', 'GET api/folders', 'GET api/folder', 'PUT api/rename-folder', 'POST api/save-files', 'GET api/download-file',
  'POST api/download-folders-files', 'DELETE api/delete-file', 'DELETE api/delete-folders-and-files', 'PUT api/move-files',
  // API keys
  'GET api/apikey', 'PUT api/apikey/toggle', 'POST api/apikey/generate', 'DELETE api/apikey/delete',
  // (issue 16's additions to the contract: the scopes keys can hold, and rotation)
  'GET api/apikey/scopes', 'POST api/apikey/rotate',
  // API users ("permission add (PUT) and remove (DELETE), single and multiple, with the same shapes as for users")
  'GET api/apiusers/api-user', 'POST api/apiusers/delete', 'POST api/apiusers/register-api-user', 'GET api/apiusers/listado-api-user', 'GET api/apiusers/permisos',
  'PUT api/apiusers/add-permisos-to-user', 'DELETE api/apiusers/remove-permisos', 'PUT api/apiusers/add-permiso-to-users-multiple',
  'DELETE api/apiusers/remove-permiso-to-users-multiple', 'POST api/apiusers/asociar-agente', 'POST api/apiusers/remove-agente',
  // Battery
  'POST api/bateria/calculadora', 'POST api/bateria/oferta', 'POST api/bateria/contrato', 'GET api/bateria/FechasAhorro', 'POST api/bateria/savedata',
] as const

/** Whether `METHOD endpoint` (with `{template}` segments) is a spec call. */
export function isSpecCall(method: string, endpoint: string): boolean {
  const path = endpoint.split('?')[0]!
  return SPEC_CALLS.some((call) => {
    const [m, p] = call.split(' ') as [string, string]
    if (m !== method) return false
    const want = p.split('/')
    const have = path.split('/')
    return want.length === have.length && want.every((seg, i) => seg === have[i] || (seg.startsWith('{') && /^\{[^}]+\}$|^[^{}]+$/.test(have[i]!)))
  })
}
