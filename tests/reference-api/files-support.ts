import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { ApiCaller } from '../helpers/api-caller'
import type { FileItem, Folder, FolderView } from '../../schemas/business/files'

/** Shared bits of the file-area suites (tests/reference-api/files-*.test.ts). */

export { ADMIN, AGENTE, NOW } from './business-support'

export interface UploadFile {
  name: string
  bytes: Buffer
  type?: string
  field?: string
}

export const sha = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex')

/** Deterministic pseudo-random bytes (xorshift), so large files are not all zeros. */
export function bytesOf(size: number, seed = 1): Buffer {
  const out = Buffer.alloc(size)
  let x = seed >>> 0 || 1
  for (let i = 0; i < size; i++) {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    out[i] = x & 0xff
  }
  return out
}

/** The multipart body of `POST /api/save-files` (`CarpetaId` first unless told otherwise). */
export function uploadForm(carpetaId: number | string | null, files: UploadFile[], opts: { carpetaLast?: boolean } = {}): FormData {
  const form = new FormData()
  if (carpetaId !== null && !opts.carpetaLast) form.append('CarpetaId', String(carpetaId))
  for (const f of files) form.append(f.field ?? 'Archivos', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name)
  if (carpetaId !== null && opts.carpetaLast) form.append('CarpetaId', String(carpetaId))
  return form
}

export async function upload(api: ApiCaller, carpetaId: number | string | null, files: UploadFile[], opts: { carpetaLast?: boolean } = {}) {
  return api.call<FileItem[]>('POST', '/api/save-files', { body: uploadForm(carpetaId, files, opts) })
}

/**
 * A multipart body written byte by byte, for file names a browser's FormData would escape or
 * refuse (NUL, raw quotes, backslashes): `filename="<raw>"` exactly as given.
 */
export async function rawUpload(api: ApiCaller, carpetaId: number | null, files: { rawName: string; bytes: Buffer }[]) {
  const boundary = `----portal-test-${Date.now().toString(16)}`
  const chunks: Buffer[] = []
  if (carpetaId !== null) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="CarpetaId"\r\n\r\n${carpetaId}\r\n`))
  for (const f of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="Archivos"; filename="${f.rawName}"\r\nContent-Type: application/octet-stream\r\n\r\n`, 'utf8'))
    chunks.push(f.bytes, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  const res = await fetch(`${api.baseUrl}/api/save-files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}`, 'x-brand-domain': api.brandDomain, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.concat(chunks),
  })
  const text = await res.text()
  return { status: res.status, text, body: (res.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as FileItem[]) : null }
}

/** Every regular file under a folder, relative paths, sorted (empty when the folder is absent). */
export function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return []
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(root, p)).isFile()).sort()
}

export async function createFolder(api: ApiCaller, Nombre: string, CarpetaPadreId: number | null = null): Promise<Folder> {
  const res = await api.post<Folder>('/api/folder/create', { Nombre, CarpetaPadreId })
  if (res.status !== 201) throw new Error(`folder/create ${res.status}: ${res.text}`)
  return res.body
}

export async function folderView(api: ApiCaller, id: number | null): Promise<FolderView> {
  const res = await api.get<FolderView>('/api/folder', { id: id ?? 0 })
  if (res.status !== 200) throw new Error(`folder ${res.status}: ${res.text}`)
  return res.body
}
