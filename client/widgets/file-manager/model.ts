/**
 * The file manager's rules, apart from the screen: the shapes of the file area (spec §7 Files),
 * the checks made before uploading (count, size, type) and before naming a folder, sizes as
 * text, the folder tree for PrimeReact's Tree and the upload's multipart body. Messages are in
 * the current language (./messages.ts).
 */
import { messageIn } from '../../i18n/i18n'
import { formatNumber } from '../../ui/format'
import { compareText } from '../../ui/text-order'
import { messages, type MessageKey as Key } from './messages'
import type { FolderNode } from '../../../schemas/business/files'

const msg = (key: Key, vars?: Record<string, string | number>) => messageIn(messages, key, vars)
/** A name quoted in a sentence: «name» in Spanish, “name” in English. */
export const quoted = (name: string) => msg('quote', { name })

/** The root of the area: "no folder" (null in answers, 0 in parameters). */
export const ROOT_ID = 0
/** Its name ("Archivos"), in the current language. */
export const rootLabel = () => msg('root')

/** Limits of `POST /api/save-files`. */
export const MAX_FILES = 20
export const MAX_FILE_BYTES = 25 * 1024 * 1024
export const ALLOWED_EXTENSIONS = ['pdf', 'jpg', 'jpeg', 'png', 'gif', 'webp', 'txt', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'zip', 'eml'] as const
export const ACCEPT_ATTRIBUTE = ALLOWED_EXTENSIONS.map((e) => `.${e}`).join(',')
export const MAX_FOLDER_NAME = 100

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : ''
}

/** "512 B", "1,5 KB", "3,2 MB" (the language's decimals, 1024-based). */
export function formatSize(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return '—'
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, 1)} KB`
  if (bytes < 1024 * 1024 * 1024) return `${formatNumber(bytes / (1024 * 1024), 1)} MB`
  return `${formatNumber(bytes / (1024 * 1024 * 1024), 2)} GB`
}

/** Messages for what cannot be uploaded; empty when the whole selection can be sent. */
export function checkUpload(files: readonly { name: string; size: number }[]): string[] {
  const errors: string[] = []
  if (files.length === 0) return [msg('upload.none')]
  if (files.length > MAX_FILES) errors.push(msg('upload.tooMany', { max: MAX_FILES, n: files.length }))
  const tooBig = files.filter((f) => f.size > MAX_FILE_BYTES)
  for (const f of tooBig) errors.push(msg('upload.tooBig', { name: f.name, size: formatSize(f.size) }))
  const badType = files.filter((f) => !(ALLOWED_EXTENSIONS as readonly string[]).includes(extensionOf(f.name)))
  if (badType.length) {
    const names = badType.map((f) => quoted(f.name)).join(', ')
    errors.push(msg(badType.length === 1 ? 'upload.badType.one' : 'upload.badType.other', { names, allowed: ALLOWED_EXTENSIONS.join(', ') }))
  }
  const empty = files.filter((f) => f.size === 0)
  for (const f of empty) errors.push(msg('upload.empty', { name: f.name }))
  return errors
}

/** What is wrong with a folder name (same rules as the API), or null. `siblings` are the names already in the parent. */
export function folderNameError(raw: string, siblings: readonly string[] = []): string | null {
  const name = raw.trim()
  if (!name) return msg('name.required')
  if (name.length > MAX_FOLDER_NAME) return msg('name.tooLong', { max: MAX_FOLDER_NAME })
  if (/[/\\:*?"<>|]/.test(name)) return msg('name.badChars')
  // oxlint-disable-next-line no-control-regex -- control characters are what this check rejects
  if (/[\u0000-\u001f\u007f]/.test(name)) return msg('name.control')
  if (name === '.' || name === '..') return msg('name.dots')
  const key = name.normalize('NFC').toLowerCase()
  if (siblings.some((s) => s.normalize('NFC').toLowerCase() === key)) return msg('name.taken', { name })
  return null
}

/** The multipart body of `POST /api/save-files`: `CarpetaId` (0 = root) and each file as `Archivos`. */
export function buildUploadForm(folderId: number | null, files: readonly File[]): FormData {
  const form = new FormData()
  form.append('CarpetaId', String(folderId ?? ROOT_ID))
  for (const f of files) form.append('Archivos', f, f.name)
  return form
}

export interface TreeItem {
  key: string
  label: string
  data: { id: number; count: number }
  icon?: string
  children: TreeItem[]
  leaf?: boolean
}

/** The brand's folder tree under one root node ("Archivos"), keyed by folder id (root "0"). */
export function toTreeNodes(roots: readonly FolderNode[], rootName = rootLabel()): TreeItem[] {
  const map = (f: FolderNode): TreeItem => {
    const children = [...(f.Hijas ?? [])].sort(byName).map(map)
    return { key: String(f.Id), label: f.Nombre, data: { id: f.Id, count: f.NumArchivos }, icon: 'pi pi-folder', children, leaf: children.length === 0 }
  }
  return [{ key: String(ROOT_ID), label: rootName, data: { id: ROOT_ID, count: 0 }, icon: 'pi pi-home', children: [...roots].sort(byName).map(map), leaf: roots.length === 0 }]
}

export const byName = (a: { Nombre: string }, b: { Nombre: string }) => compareText(a.Nombre, b.Nombre)

/** The folder ids from the root down to `id` (inclusive), to open the tree there; [] if unknown. */
export function pathTo(roots: readonly FolderNode[], id: number): number[] {
  const walk = (nodes: readonly FolderNode[], trail: number[]): number[] | null => {
    for (const n of nodes) {
      if (n.Id === id) return [...trail, n.Id]
      const found = walk(n.Hijas ?? [], [...trail, n.Id])
      if (found) return found
    }
    return null
  }
  return walk(roots, []) ?? []
}

/** Names of the folders beside `id` (same parent), for the unique-name check of a rename. */
export function siblingNames(roots: readonly FolderNode[], id: number): string[] {
  const find = (nodes: readonly FolderNode[]): string[] | null => {
    if (nodes.some((n) => n.Id === id)) return nodes.filter((n) => n.Id !== id).map((n) => n.Nombre)
    for (const n of nodes) {
      const inner = find(n.Hijas ?? [])
      if (inner) return inner
    }
    return null
  }
  return find(roots) ?? []
}

/** "2 archivos y 1 carpeta" ("2 files and 1 folder") */
export function describeCount(files: number, folders: number): string {
  const f = files ? msg(files === 1 ? 'count.file.one' : 'count.file.other', { n: files }) : ''
  const d = folders ? msg(folders === 1 ? 'count.folder.one' : 'count.folder.other', { n: folders }) : ''
  return f && d ? msg('count.and', { a: f, b: d }) : f || d || msg('count.nothing')
}

/** The body of `DELETE /api/delete-folders-and-files` and of `POST /api/download-folders-files`. */
export function selectionBodies(fileIds: Iterable<number>, folderIds: Iterable<number>) {
  const Archivos = [...fileIds]
  const Carpetas = [...folderIds]
  return { remove: { Carpetas, Archivos }, download: { ArchivoIds: Archivos, CarpetaIds: Carpetas } }
}
