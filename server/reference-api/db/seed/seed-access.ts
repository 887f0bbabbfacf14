import type Database from 'better-sqlite3'
import { hashPassword } from '../../auth/passwords'
import { APELLIDOS, NOMBRES } from '../../data/personas'
import type { Random } from '../../lib/random'

/** The documented demo accounts (README). */
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@portal.test', password: 'Portal-Admin-2026!', nombre: 'Ana', apellidos: 'Administradora Portal' },
  agente: { email: 'agente@portal.test', password: 'Portal-Agente-2026!', nombre: 'Alberto', apellidos: 'Agente Comercial' },
  /** The second approver of four-eyes approval: GESTORACCESS, like admin. */
  supervisor: { email: 'supervisor@portal.test', password: 'Portal-Supervisor-2026!', nombre: 'Sara', apellidos: 'Supervisora Portal' },
} as const

export const PERMISOS = [
  ['Ver renovaciones', 'VERRENOVACIONES', 'Acceso a la lista de renovaciones y a sus acciones.'],
  ['Gestión de accesos', 'GESTORACCESS', 'Administración de usuarios, grupos, permisos, usuarios de API y claves.'],
  ['Menú productos baterías', 'MENUPRODUCTOSBATERIAS', 'Acceso a la calculadora de baterías y a sus ofertas.'],
  ['Ver datos personales', 'VERDATOSPERSONALES', 'Mostrar en claro, dando un motivo, los datos personales de clientes que el portal enseña enmascarados.'],
] as const

const GRUPOS = [
  ['Administradores', 'Acceso completo al portal.', ['VERRENOVACIONES', 'GESTORACCESS', 'MENUPRODUCTOSBATERIAS', 'VERDATOSPERSONALES']],
  ['Backoffice', 'Equipo de gestión de contratos y renovaciones.', ['VERRENOVACIONES']],
  ['Comerciales', 'Agentes y canal de venta.', []],
  ['Productos', 'Venta de soluciones de autoconsumo y baterías.', ['MENUPRODUCTOSBATERIAS']],
] as const

/** A password hash that matches no password: the account exists but cannot sign in until one is set. */
export const NO_PASSWORD = '!'

export interface DemoHashes {
  admin: string
  agente: string
  supervisor: string
}

/** Permissions, groups and users: the demo accounts plus staff without a usable password. */
export async function demoPasswordHashes(): Promise<DemoHashes> {
  const [admin, agente, supervisor] = await Promise.all([hashPassword(DEMO_ACCOUNTS.admin.password), hashPassword(DEMO_ACCOUNTS.agente.password), hashPassword(DEMO_ACCOUNTS.supervisor.password)])
  return { admin, agente, supervisor }
}

export function seedAccess(db: Database.Database, rnd: Random, today: Date, hashes: DemoHashes): void {
  const adminHash = hashes.admin
  const agenteHash = hashes.agente
  const insertPermiso = db.prepare('INSERT INTO permisos (nombre, nombre_normalizado, descripcion) VALUES (?, ?, ?)')
  const insertGrupo = db.prepare('INSERT INTO grupos (nombre, descripcion) VALUES (?, ?)')
  const linkGrupoPermiso = db.prepare(
    'INSERT INTO grupo_permisos (grupo_id, permiso_id) SELECT ?, id FROM permisos WHERE nombre_normalizado = ?',
  )
  const insertUsuario = db.prepare(
    `INSERT INTO usuarios (email, nombre, apellidos, telefono, password_hash, activo, fecha_alta, ultimo_acceso)
     VALUES (@email, @nombre, @apellidos, @telefono, @hash, @activo, @fechaAlta, @ultimoAcceso)`,
  )
  const addToGroup = db.prepare('INSERT OR IGNORE INTO usuario_grupos (usuario_id, grupo_id) SELECT ?, id FROM grupos WHERE nombre = ?')
  const day = (offset: number) => new Date(today.getTime() - offset * 86_400_000).toISOString().slice(0, 10)

  db.transaction(() => {
    for (const [nombre, normalizado, descripcion] of PERMISOS) insertPermiso.run(nombre, normalizado, descripcion)
    for (const [nombre, descripcion, permisos] of GRUPOS) {
      const id = insertGrupo.run(nombre, descripcion).lastInsertRowid
      for (const p of permisos) linkGrupoPermiso.run(id, p)
    }
    const admin = insertUsuario.run({
      email: DEMO_ACCOUNTS.admin.email,
      nombre: DEMO_ACCOUNTS.admin.nombre,
      apellidos: DEMO_ACCOUNTS.admin.apellidos,
      telefono: '910000001',
      hash: adminHash,
      activo: 1,
      fechaAlta: day(900),
      ultimoAcceso: null,
    }).lastInsertRowid
    addToGroup.run(admin, 'Administradores')
    const agente = insertUsuario.run({
      email: DEMO_ACCOUNTS.agente.email,
      nombre: DEMO_ACCOUNTS.agente.nombre,
      apellidos: DEMO_ACCOUNTS.agente.apellidos,
      telefono: '910000002',
      hash: agenteHash,
      activo: 1,
      fechaAlta: day(600),
      ultimoAcceso: null,
    }).lastInsertRowid
    addToGroup.run(agente, 'Comerciales')

    const used = new Set<string>([DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.agente.email])
    const grupos = ['Backoffice', 'Backoffice', 'Comerciales', 'Comerciales', 'Comerciales', 'Productos'] as const
    let made = 0
    while (made < 34) {
      const nombre = rnd.pick(NOMBRES)
      const ap1 = rnd.pick(APELLIDOS)
      const ap2 = rnd.pick(APELLIDOS)
      const email = `${slug(nombre)}.${slug(ap1)}@portal.test`
      if (used.has(email)) continue
      used.add(email)
      const id = insertUsuario.run({
        email,
        nombre,
        apellidos: `${ap1} ${ap2}`,
        telefono: `6${rnd.digits(8)}`,
        hash: NO_PASSWORD,
        activo: rnd.chance(0.9) ? 1 : 0,
        fechaAlta: day(rnd.int(10, 1400)),
        ultimoAcceso: rnd.chance(0.7) ? `${day(rnd.int(0, 60))}T${String(rnd.int(7, 19)).padStart(2, '0')}:${String(rnd.int(0, 59)).padStart(2, '0')}:00Z` : null,
      }).lastInsertRowid
      addToGroup.run(id, rnd.pick(grupos))
      if (rnd.chance(0.15)) addToGroup.run(id, 'Productos')
      made++
    }
    // Last, so the ids of the accounts above stay as they were.
    const supervisor = insertUsuario.run({
      email: DEMO_ACCOUNTS.supervisor.email,
      nombre: DEMO_ACCOUNTS.supervisor.nombre,
      apellidos: DEMO_ACCOUNTS.supervisor.apellidos,
      telefono: '910000003',
      hash: hashes.supervisor,
      activo: 1,
      fechaAlta: day(700),
      ultimoAcceso: null,
    }).lastInsertRowid
    addToGroup.run(supervisor, 'Administradores')
  })()
}

export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
}
