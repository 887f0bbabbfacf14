import type Database from 'better-sqlite3'
import type { PermissionRef } from '../../../schemas/business/access'

export interface UserRow {
  id: number
  email: string
  nombre: string
  apellidos: string
  telefono: string | null
  password_hash: string
  activo: number
  /** Set while a self sign-up waits for approval: the brand it signed up in. */
  alta_pendiente_marca_id: number | null
  /** SHA-256 of the token that withdraws the pending sign-up (while it waits). */
  alta_retirada_hash: string | null
  fecha_alta: string
  ultimo_acceso: string | null
}

/** Reads of users and their effective permissions (direct ones and those of their groups). */
export class UsersRepo {
  private readonly byId
  private readonly byEmail
  private readonly effective
  private readonly groups
  private readonly agent

  constructor(private readonly db: Database.Database) {
    this.byId = db.prepare<[number], UserRow>('SELECT * FROM usuarios WHERE id = ?')
    this.byEmail = db.prepare<[string], UserRow>('SELECT * FROM usuarios WHERE email = ? COLLATE NOCASE')
    this.effective = db.prepare<[number, number], { Id: number; Nombre: string; NombreNormalizado: string }>(
      `SELECT p.id AS Id, p.nombre AS Nombre, p.nombre_normalizado AS NombreNormalizado FROM permisos p
       WHERE p.id IN (SELECT permiso_id FROM usuario_permisos WHERE usuario_id = ?)
          OR p.id IN (SELECT gp.permiso_id FROM grupo_permisos gp JOIN usuario_grupos ug ON ug.grupo_id = gp.grupo_id WHERE ug.usuario_id = ?)
       ORDER BY p.nombre_normalizado`,
    )
    this.groups = db.prepare<[number], { Id: number; Nombre: string }>(
      'SELECT g.id AS Id, g.nombre AS Nombre FROM grupos g JOIN usuario_grupos ug ON ug.grupo_id = g.id WHERE ug.usuario_id = ? ORDER BY g.nombre',
    )
    this.agent = db.prepare<[number, number], { Id: number; Nombre: string; Codigo: string }>(
      'SELECT id AS Id, nombre AS Nombre, codigo AS Codigo FROM agentes WHERE usuario_id = ? AND marca_id = ?',
    )
  }

  find(id: number): UserRow | undefined {
    return this.byId.get(id)
  }

  findByEmail(email: string): UserRow | undefined {
    return this.byEmail.get(email.trim())
  }

  permissions(userId: number): PermissionRef[] {
    return this.effective.all(userId, userId)
  }

  /** The get-session answer: the user with `Permisos`, groups and the agent linked in this brand. */
  sessionUser(user: UserRow, marcaId: number) {
    return {
      Id: user.id,
      UserName: user.email,
      Email: user.email,
      Nombre: user.nombre,
      Apellidos: user.apellidos,
      Telefono: user.telefono,
      Permisos: this.permissions(user.id),
      Grupos: this.groups.all(user.id),
      Agente: this.agent.get(user.id, marcaId) ?? null,
    }
  }
}
