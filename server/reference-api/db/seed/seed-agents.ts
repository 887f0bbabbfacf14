import type Database from 'better-sqlite3'
import { APELLIDOS, EMPRESA_ADJETIVOS, NOMBRES } from '../../data/personas'
import { makeCif, makeDni } from '../../domain/identifiers'
import type { Random } from '../../lib/random'
import { brandPrefix } from '../../lib/codigos'
import { slug } from './seed-access'

/** Per brand: 4 agencies → 12 sub-agencies → 24 agents, 40 in all, three levels deep. */
export function seedAgents(db: Database.Database, rnd: Random, today: Date): void {
  const marcas = db.prepare('SELECT id, dominio FROM marcas ORDER BY id').all() as { id: number; dominio: string }[]
  const insert = db.prepare(
    `INSERT INTO agentes (marca_id, codigo, nombre, nif, email, telefono, provincia_id, padre_id, nivel, usuario_id, tipo_comision_id, activo, fecha_alta)
     VALUES (@marca, @codigo, @nombre, @nif, @email, @telefono, @provincia, @padre, @nivel, NULL, @comision, @activo, @fechaAlta)`,
  )
  const day = (offset: number) => new Date(today.getTime() - offset * 86_400_000).toISOString().slice(0, 10)
  const agente = db.prepare("SELECT id FROM usuarios WHERE email = 'agente@portal.test'").get() as { id: number }
  const comerciales = db
    .prepare(
      `SELECT u.id FROM usuarios u JOIN usuario_grupos ug ON ug.usuario_id = u.id JOIN grupos g ON g.id = ug.grupo_id
       WHERE g.nombre = 'Comerciales' AND u.email <> 'agente@portal.test' ORDER BY u.id`,
    )
    .all() as { id: number }[]
  const link = db.prepare('UPDATE agentes SET usuario_id = ? WHERE id = ?')

  db.transaction(() => {
    for (const marca of marcas) {
      const prefix = `AG${brandPrefix(marca.dominio)}`
      let seq = 0
      const code = () => `${prefix}-${String(++seq).padStart(4, '0')}`
      const common = (nivel: number, padre: number | null) => ({
        marca: marca.id,
        codigo: code(),
        telefono: `${rnd.pick(['6', '9'])}${rnd.digits(8)}`,
        provincia: rnd.int(1, 52),
        padre,
        nivel,
        comision: rnd.int(1, 3),
        activo: rnd.chance(0.93) ? 1 : 0,
        fechaAlta: day(rnd.int(60, 1800)),
      })
      const agencies: number[] = []
      const subAgencies: number[] = []
      for (let i = 0; i < 4; i++) {
        const name = `Energía ${rnd.pick(EMPRESA_ADJETIVOS)} Distribución`
        const id = insert.run({
          ...common(1, null),
          nombre: `${name} S.L.`,
          nif: makeCif('B', rnd.digits(7)),
          email: `${slug(name)}@agencias.${marca.dominio}`,
        }).lastInsertRowid as number
        agencies.push(id)
      }
      for (let i = 0; i < 12; i++) {
        const nombre = `${rnd.pick(NOMBRES)} ${rnd.pick(APELLIDOS)}`
        const name = `Asesoría Energética ${rnd.pick(APELLIDOS)}`
        const id = insert.run({
          ...common(2, agencies[i % 4]!),
          nombre: rnd.chance(0.5) ? `${name} S.L.` : nombre,
          nif: rnd.chance(0.5) ? makeCif('B', rnd.digits(7)) : makeDni(rnd.int(10_000_000, 79_999_999)),
          email: `${slug(nombre)}${i}@colaboradores.${marca.dominio}`,
        }).lastInsertRowid as number
        subAgencies.push(id)
      }
      const agents: number[] = []
      for (let i = 0; i < 24; i++) {
        const nombre = `${rnd.pick(NOMBRES)} ${rnd.pick(APELLIDOS)} ${rnd.pick(APELLIDOS)}`
        const id = insert.run({
          ...common(3, subAgencies[i % 12]!),
          nombre,
          nif: makeDni(rnd.int(10_000_000, 79_999_999)),
          email: `${slug(nombre)}@comerciales.${marca.dominio}`,
        }).lastInsertRowid as number
        agents.push(id)
      }
      // The demo agent user manages a sub-agency (so it has a team under it); other sales users get an agent each.
      link.run(agente.id, subAgencies[0]!)
      comerciales.forEach((u, i) => {
        if (i < agents.length && i % 2 === 0) link.run(u.id, agents[i]!)
      })
    }
  })()
}
