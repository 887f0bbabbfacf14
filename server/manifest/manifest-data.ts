import { MenuDefinition, type MenuDefinition as Menu } from '../../schemas/menu'
import { RouteTable, type RouteDef } from '../../schemas/manifest'
import { validatorFor } from '../lib/validate'
import defaultMenuJson from './default-menu.json' with { type: 'json' }
import routesJson from './routes.json' with { type: 'json' }

const checkMenu = validatorFor<Menu>(MenuDefinition)
const checkRoutes = validatorFor<RouteDef[]>(RouteTable)

/** The route table of spec §2, validated once at boot. */
export function loadRoutes(): RouteDef[] {
  const routes = checkRoutes(routesJson, 'server/manifest/routes.json')
  const seen = new Set<string>()
  for (const r of routes) {
    const key = r.path.toLowerCase()
    if (seen.has(key)) throw new Error(`server/manifest/routes.json: ruta repetida ${r.path}`)
    seen.add(key)
  }
  return routes
}

/** The side menu shipped with the code: the base every stored admin edit sits on. */
export function loadDefaultMenu(): Menu {
  return checkMenu(defaultMenuJson, 'server/manifest/default-menu.json')
}
