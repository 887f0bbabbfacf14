import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'

/**
 * Contract documents on disk: `<documentsDir>/<marca>/<contrato>/<documento>` — named by ids
 * only, never by the uploaded name (kept, sanitised, in the database for the download
 * header). Uploads are streamed to `<documentsDir>/.tmp/` first (size and SHA-256 computed
 * on the way) and moved into place once the whole request is accepted.
 */

export const MAX_FILE_BYTES = 10 * 1024 * 1024
export const MAX_FILES = 10

interface FileKind {
  mime: string
  label: string
  /** Does the start of the content look like this kind? */
  sniff: (head: Buffer) => boolean
}

const startsWith = (head: Buffer, bytes: readonly number[]) => bytes.every((b, i) => head[i] === b)
const ZIP = [0x50, 0x4b, 0x03, 0x04]
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]
const isPdf = (head: Buffer) => head.subarray(0, 1024).includes('%PDF-')
const isJpeg = (head: Buffer) => startsWith(head, [0xff, 0xd8, 0xff])

/** Accepted files by extension; the content must match (magic bytes). */
export const FILE_KINDS: Record<string, FileKind> = {
  pdf: { mime: 'application/pdf', label: 'PDF', sniff: isPdf },
  jpg: { mime: 'image/jpeg', label: 'JPG', sniff: isJpeg },
  jpeg: { mime: 'image/jpeg', label: 'JPG', sniff: isJpeg },
  png: { mime: 'image/png', label: 'PNG', sniff: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  doc: { mime: 'application/msword', label: 'DOC', sniff: (h) => startsWith(h, OLE) },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', label: 'DOCX', sniff: (h) => startsWith(h, ZIP) },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', label: 'XLSX', sniff: (h) => startsWith(h, ZIP) },
  odt: { mime: 'application/vnd.oasis.opendocument.text', label: 'ODT', sniff: (h) => startsWith(h, ZIP) },
}
export const ACCEPTED_LABEL = 'PDF, JPG, PNG, DOC, DOCX, XLSX u ODT'

/** The lower-case extension of a file name ('' when none). */
export function extensionOf(name: string): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(name)
  return m ? m[1]!.toLowerCase() : ''
}

/**
 * A file name safe to keep and to show: the last path segment only, no control or reserved
 * characters (`<>:"/\|?*`), no leading dots, spaces collapsed, at most 120 characters (the
 * extension kept). Empty → `documento.<ext>`.
 */
export function sanitizeFileName(raw: string, fallbackExt = 'bin'): string {
  const base = raw.split(/[\\/]/).pop() ?? ''
  let name = base
    .normalize('NFC')
    // oxlint-disable-next-line no-control-regex -- control characters are what a file name loses here
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .trim()
  if (name.length > 120) {
    const ext = extensionOf(name)
    name = ext ? `${name.slice(0, 119 - ext.length).trim()}.${ext}` : name.slice(0, 120)
  }
  return name || `documento.${fallbackExt}`
}

/** Content-Disposition for a download: an ASCII fallback plus the UTF-8 name (RFC 6266/5987). */
export function contentDisposition(fileName: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = fileName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._ ()-]/g, '_')
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

export interface StoredTemp {
  tempPath: string
  size: number
  sha256: string
  head: Buffer
  /** The upload went over MAX_FILE_BYTES (the file was cut; it must be refused). */
  truncated: boolean
}

export class DocumentStore {
  constructor(readonly dir: string) {}

  private get tmpDir(): string {
    return path.join(this.dir, '.tmp')
  }

  /** Streams an upload to a temporary file, computing its size, SHA-256 and first bytes. */
  async saveTemp(stream: Readable & { truncated?: boolean }): Promise<StoredTemp> {
    fs.mkdirSync(this.tmpDir, { recursive: true })
    const tempPath = path.join(this.tmpDir, randomUUID())
    const hash = createHash('sha256')
    const out = fs.createWriteStream(tempPath, { flags: 'wx', mode: 0o600 })
    let size = 0
    const headChunks: Buffer[] = []
    let headLen = 0
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length
        hash.update(chunk)
        if (headLen < 1024) {
          headChunks.push(chunk.subarray(0, 1024 - headLen))
          headLen += Math.min(chunk.length, 1024 - headLen)
        }
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve))
      }
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())))
    } catch (err) {
      out.destroy()
      fs.rmSync(tempPath, { force: true })
      throw err
    }
    return { tempPath, size, sha256: hash.digest('hex'), head: Buffer.concat(headChunks), truncated: stream.truncated === true }
  }

  /** Where a document's bytes live, relative to the documents folder. */
  relativePath(marcaId: number, contratoId: number, documentoId: number): string {
    return path.posix.join(String(marcaId), String(contratoId), String(documentoId))
  }

  /** The absolute path of a stored document; refuses anything outside the documents folder. */
  absolute(relative: string): string {
    const root = path.resolve(this.dir)
    const full = path.resolve(root, relative)
    if (!full.startsWith(root + path.sep)) throw new Error(`Ruta de documento fuera de la carpeta: ${relative}`)
    return full
  }

  /** Moves an accepted temporary file to its final place. */
  commit(tempPath: string, relative: string): void {
    const target = this.absolute(relative)
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.renameSync(tempPath, target)
  }

  discard(tempPaths: readonly string[]): void {
    for (const p of tempPaths) fs.rmSync(p, { force: true })
  }
}
