import agents from './agents.json'
import apikeys from './apikeys.json'
import apiusers from './apiusers.json'
import auth from './auth.json'
import battery from './battery.json'
import clients from './clients.json'
import comparador from './comparador.json'
import contracts from './contracts.json'
import energy from './energy.json'
import files from './files.json'
import groups from './groups.json'
import invoices from './invoices.json'
import permissions from './permissions.json'
import preferences from './preferences.json'
import publicApi from './public-api.json'
import renewals from './renewals.json'
import sips from './sips.json'
import users from './users.json'
import utility from './utility.json'
import validators from './validators.json'

/**
 * The shipped catalogue files, one per area: the one list of them, read by the BFF (which
 * checks them against the schema at start and adds an operator's own files) and by the client
 * (lazily, for the area and message of a failure). A test keeps it equal to the folder.
 */
export const SHIPPED_CATALOGUE: Record<string, unknown> = {
  'agents.json': agents,
  'apikeys.json': apikeys,
  'apiusers.json': apiusers,
  'auth.json': auth,
  'battery.json': battery,
  'clients.json': clients,
  'comparador.json': comparador,
  'contracts.json': contracts,
  'energy.json': energy,
  'files.json': files,
  'groups.json': groups,
  'invoices.json': invoices,
  'permissions.json': permissions,
  'preferences.json': preferences,
  'public-api.json': publicApi,
  'renewals.json': renewals,
  'sips.json': sips,
  'users.json': users,
  'utility.json': utility,
  'validators.json': validators,
}
