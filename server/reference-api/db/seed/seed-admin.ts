import type Database from 'better-sqlite3'
import { randomBytes } from 'node:crypto'
import { hashSecret } from '../../lib/api-keys'
import type { Random } from '../../lib/random'
import { isoInstant } from '../../lib/instants'
import { DEMO_ACCOUNTS } from './seed-access'

/** Permissions meant for integrations (API users); portal users may hold them too. */
export const API_PERMISOS = [
  ['API contratos lectura', 'APICONTRATOSLECTURA', 'Integraciones: consulta de contratos, su estado y documentos.'],
  ['API contratos alta', 'APICONTRATOSALTA', 'Integraciones: alta de contratos y envío de documentación.'],
  ['API SIPS', 'APISIPS', 'Integraciones: consulta de puntos de suministro (SIPS) y consumos.'],
  ['API facturas', 'APIFACTURAS', 'Integraciones: consulta y descarga de facturas.'],
] as const

type ApiPermiso = (typeof API_PERMISOS)[number][1]

interface SeedKey {
  descripcion: string
  /** Days ago it was created. */
  creada: number
  activa?: boolean
  /** Days from the seed date to its expiry (negative: already expired). */
  caduca?: number
  /** Days ago it was last used; null: never. */
  uso: number | null
}

interface SeedApiUser {
  nombre: string
  email: string
  descripcion: string
  activo: boolean
  alta: number
  permisos: ApiPermiso[]
  keys: SeedKey[]
  /** Agent link: brand domain and which agency (level 1) of that brand. */
  agente?: { dominio: string; agencia: number }
}

const API_USERS: SeedApiUser[] = [
  {
    nombre: 'CRM Comercial',
    email: 'crm.integraciones@energiaverde.es',
    descripcion: 'Sincroniza clientes, contratos y oportunidades con el CRM del equipo comercial (Salesforce).',
    activo: true,
    alta: 720,
    permisos: ['APICONTRATOSLECTURA', 'APICONTRATOSALTA'],
    keys: [
      { descripcion: 'Producción', creada: 700, uso: 0 },
      { descripcion: 'Sandbox de pruebas', creada: 120, uso: 9 },
    ],
  },
  {
    nombre: 'Plataforma de firma electrónica',
    email: 'soporte@firmadigital-demo.es',
    descripcion: 'Recibe los contratos pendientes de firma y devuelve el documento firmado con su evidencia.',
    activo: true,
    alta: 640,
    permisos: ['APICONTRATOSLECTURA'],
    keys: [{ descripcion: 'Webhook de producción', creada: 630, uso: 0 }],
  },
  {
    nombre: 'Comparador web TarifaClara',
    email: 'partners@tarifaclara-demo.es',
    descripcion: 'Comparador de tarifas online: consulta el SIPS y da de alta los contratos captados en la web.',
    activo: true,
    alta: 410,
    permisos: ['APISIPS', 'APICONTRATOSALTA'],
    keys: [
      { descripcion: 'Altas de contratos', creada: 400, uso: 1 },
      { descripcion: 'Consultas SIPS', creada: 200, uso: 0 },
    ],
    agente: { dominio: 'energiaverde.es', agencia: 0 },
  },
  {
    nombre: 'ERP Facturación',
    email: 'erp@energiaverde.es',
    descripcion: 'Exporta facturas y estados de contrato al ERP de facturación (SAP S/4HANA) cada noche.',
    activo: true,
    alta: 980,
    permisos: ['APIFACTURAS', 'APICONTRATOSLECTURA'],
    keys: [
      { descripcion: 'Integración nocturna', creada: 300, uso: 0 },
      { descripcion: 'Integración antigua (sustituida)', creada: 960, activa: false, uso: 301 },
      { descripcion: 'Pruebas QA', creada: 90, caduca: -5, uso: 20 },
    ],
  },
  {
    nombre: 'Call center Atención Norte',
    email: 'sistemas@atencionnorte-demo.es',
    descripcion: 'Centralita del servicio de atención al cliente externalizado: consulta contratos y facturas.',
    activo: true,
    alta: 350,
    permisos: ['APICONTRATOSLECTURA', 'APIFACTURAS'],
    keys: [{ descripcion: 'Centralita', creada: 340, caduca: 200, uso: 2 }],
  },
  {
    nombre: 'Agregador Red Colaboradores Levante',
    email: 'api@redlevante-demo.es',
    descripcion: 'Red de colaboradores que agrega las altas de varias asesorías energéticas de la Comunidad Valenciana.',
    activo: true,
    alta: 260,
    permisos: ['APICONTRATOSALTA', 'APISIPS'],
    keys: [
      { descripcion: 'Producción', creada: 250, uso: 0 },
      { descripcion: 'Preproducción', creada: 250, uso: 33 },
    ],
    agente: { dominio: 'grupoenergia.es', agencia: 1 },
  },
  {
    nombre: 'Partner Autoconsumo SolarHub',
    email: 'tech@solarhub-demo.es',
    descripcion: 'Instalador de autoconsumo y baterías: da de alta contratos con compensación de excedentes.',
    activo: true,
    alta: 150,
    permisos: ['APICONTRATOSALTA'],
    keys: [{ descripcion: 'Producción', creada: 140, uso: null }],
    agente: { dominio: 'energialimpia.es', agencia: 0 },
  },
  {
    nombre: 'Cuadro de mando BI',
    email: 'datos@energiaverde.es',
    descripcion: 'Extracciones para el cuadro de mando de dirección (Power BI). Desactivado mientras se migra al nuevo almacén de datos.',
    activo: false,
    alta: 540,
    permisos: ['APICONTRATOSLECTURA', 'APIFACTURAS'],
    keys: [],
  },
]

/**
 * API users with their permissions, keys and agent links, and the admin demo account's
 * preferences. Seeded keys are unusable on purpose: their secret is random and thrown away
 * (a key whose secret followed from the fixed seed could be rebuilt by anyone reading this
 * file); the API test console generates a fresh key.
 */
export function seedAdmin(db: Database.Database, rnd: Random, today: Date): void {
  const at = (daysAgo: number, hour = 9) => {
    const d = new Date(today.getTime() - daysAgo * 86_400_000)
    d.setUTCHours(hour, rnd.int(0, 59), rnd.int(0, 59), 0)
    return isoInstant(d.getTime())
  }
  const day = (daysAgo: number) => new Date(today.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10)
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[rnd.int(0, 15)]).join('')
  const admin = db.prepare('SELECT id, email FROM usuarios WHERE email = ?').get(DEMO_ACCOUNTS.admin.email) as { id: number; email: string }

  const insertPermiso = db.prepare('INSERT OR IGNORE INTO permisos (nombre, nombre_normalizado, descripcion) VALUES (?, ?, ?)')
  const insertApiUser = db.prepare(
    'INSERT INTO api_usuarios (nombre, email, descripcion, activo, fecha_alta, creado_por) VALUES (@nombre, @email, @descripcion, @activo, @alta, @creador)',
  )
  const linkPermiso = db.prepare('INSERT INTO api_usuario_permisos (api_usuario_id, permiso_id) SELECT ?, id FROM permisos WHERE nombre_normalizado = ?')
  const insertKey = db.prepare(
    `INSERT INTO api_keys (api_usuario_id, public_id, secret_hash, descripcion, activa, fecha_creacion, creada_por, ultimo_uso, fecha_expiracion)
     VALUES (@usuario, @publicId, @hash, @descripcion, @activa, @creada, @creador, @uso, @caduca)`,
  )
  const agency = db.prepare(
    'SELECT a.id, a.marca_id, a.codigo FROM agentes a JOIN marcas m ON m.id = a.marca_id WHERE m.dominio = ? AND a.nivel = 1 ORDER BY a.id LIMIT 1 OFFSET ?',
  )
  const linkAgent = db.prepare('INSERT INTO api_usuario_agentes (marca_id, api_usuario_id, agente_id, fecha_alta) VALUES (?, ?, ?, ?)')
  const insertAudit = db.prepare(
    "INSERT INTO auditoria_admin (fecha, usuario_id, usuario_email, accion, entidad, entidad_id, detalle) VALUES (?, ?, ?, ?, 'api_usuario', ?, ?)",
  )
  const upsertPref = db.prepare(
    `INSERT INTO preferencias (usuario_id, clave, valor, fecha_creacion, fecha_modificacion) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (usuario_id, clave) DO UPDATE SET valor = excluded.valor, fecha_modificacion = excluded.fecha_modificacion`,
  )

  for (const [nombre, normalizado, descripcion] of API_PERMISOS) insertPermiso.run(nombre, normalizado, descripcion)

  for (const u of API_USERS) {
    const alta = at(u.alta)
    const id = Number(
      insertApiUser.run({ nombre: u.nombre, email: u.email, descripcion: u.descripcion, activo: u.activo ? 1 : 0, alta: day(u.alta), creador: admin.id }).lastInsertRowid,
    )
    insertAudit.run(alta, admin.id, admin.email, 'api_usuario.alta', String(id), JSON.stringify({ Nombre: u.nombre, Email: u.email }))
    for (const p of u.permisos) linkPermiso.run(id, p)
    for (const k of u.keys) {
      const publicId = `pk_${hex(16)}`
      const creada = at(k.creada)
      insertKey.run({
        usuario: id,
        publicId,
        hash: hashSecret(randomBytes(32).toString('base64url')),
        descripcion: k.descripcion,
        activa: k.activa === false ? 0 : 1,
        creada,
        creador: admin.id,
        uso: k.uso === null ? null : at(k.uso, rnd.int(7, 22)),
        caduca: k.caduca === undefined ? null : `${day(-k.caduca)}T23:59:59Z`,
      })
      insertAudit.run(creada, admin.id, admin.email, 'apikey.generada', String(id), JSON.stringify({ ApiKey: publicId, Descripcion: k.descripcion }))
      if (k.activa === false) insertAudit.run(at(k.uso ?? 0, 18), admin.id, admin.email, 'apikey.desactivada', String(id), JSON.stringify({ ApiKey: publicId }))
    }
    if (u.agente) {
      const agent = agency.get(u.agente.dominio, u.agente.agencia) as { id: number; marca_id: number; codigo: string } | undefined
      if (agent) {
        linkAgent.run(agent.marca_id, id, agent.id, alta)
        insertAudit.run(alta, admin.id, admin.email, 'api_usuario.agente_asociado', String(id), JSON.stringify({ IdAgente: agent.id, Codigo: agent.codigo, Marca: u.agente.dominio }))
      }
    }
  }

  // The admin account's profile shows some preferences. The screens' tables keep one
  // preference per table, `tabla:<screen id>:<table id>` → { columns?, filters? } (the column
  // choice and the saved filters): here for the contract and invoice lists.
  const prefs: [string, unknown, number][] = [
    [
      'tabla:contratos-listado:contratos',
      {
        columns: ['CodigoContrato', 'Titular', 'Tarifa', 'Estado', 'FechaAlta', 'Agente', 'Modalidad', 'ConsumoAnual'],
        filters: [
          { name: 'Pendientes de firma', filters: { Estado: 'pendiente_firma' }, sort: { field: 'FechaAlta', order: 'desc' } },
          { name: 'Altas de este año en 3.0TD', filters: { Tarifa: '3.0TD', FechaAlta: `${today.getUTCFullYear()}-01-01|` }, sort: { field: 'ConsumoAnual', order: 'desc' } },
        ],
      },
      12,
    ],
    ['tabla:facturas:facturas', { columns: ['Numero', 'CodigoContrato', 'Titular', 'ImporteTotal', 'EstadoPago', 'FechaEmision', 'FechaVencimiento'] }, 75],
  ]
  for (const [clave, valor, daysAgo] of prefs) {
    const when = at(daysAgo, 11)
    upsertPref.run(admin.id, clave, JSON.stringify(valor), when, when)
  }
}
