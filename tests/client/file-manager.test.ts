import { describe, expect, it } from 'vitest'
import {
  buildUploadForm,
  checkUpload,
  describeCount,
  extensionOf,
  folderNameError,
  formatSize,
  MAX_FILE_BYTES,
  pathTo,
  selectionBodies,
  siblingNames,
  toTreeNodes,
} from '../../client/widgets/file-manager/model'
import type { FolderNode } from '../../schemas/business/files'

const MB = 1024 * 1024
const f = (name: string, size = 1000) => ({ name, size })

describe('checks before uploading', () => {
  it('lets a normal selection through', () => {
    expect(checkUpload([f('tarifas.csv'), f('Contrato firmado.PDF', 3 * MB), f('foto.jpeg')])).toEqual([])
  })

  it('allows 20 files but not 21', () => {
    expect(checkUpload(Array.from({ length: 20 }, (_, i) => f(`a${i}.txt`)))).toEqual([])
    expect(checkUpload(Array.from({ length: 21 }, (_, i) => f(`a${i}.txt`)))).toEqual(['Puedes subir como máximo 20 archivos a la vez (has elegido 21).'])
  })

  it('allows 25 MB per file, not a byte more', () => {
    expect(checkUpload([f('grande.pdf', MAX_FILE_BYTES)])).toEqual([])
    expect(checkUpload([f('enorme.pdf', MAX_FILE_BYTES + 1)])).toEqual(['«enorme.pdf» ocupa 25 MB y supera el máximo de 25 MB por archivo.'])
    expect(checkUpload([f('video.zip', 40 * MB)])[0]).toBe('«video.zip» ocupa 40 MB y supera el máximo de 25 MB por archivo.')
  })

  it('names the files of a type the area does not take', () => {
    const [message] = checkUpload([f('setup.exe'), f('sin-extension'), f('ok.docx')])
    expect(message).toMatch(/^Tipos de archivo no admitidos: «setup\.exe», «sin-extension»\. Se admiten pdf, jpg/)
  })

  it('refuses an empty selection and empty files', () => {
    expect(checkUpload([])).toEqual(['No has elegido ningún archivo.'])
    expect(checkUpload([f('vacio.txt', 0)])).toEqual(['«vacio.txt» está vacío.'])
  })

  it('reads extensions case-insensitively', () => {
    expect(extensionOf('Informe.Final.XLSX')).toBe('xlsx')
    expect(extensionOf('.bashrc')).toBe('')
    expect(extensionOf('nombre.')).toBe('')
  })
})

describe('folder names', () => {
  it('follows the API rules', () => {
    expect(folderNameError('Tarifas 2026')).toBeNull()
    expect(folderNameError('   ')).toBe('Escribe un nombre para la carpeta.')
    expect(folderNameError('a'.repeat(101))).toBe('El nombre no puede tener más de 100 caracteres.')
    expect(folderNameError('a'.repeat(100))).toBeNull()
    for (const bad of ['a/b', 'a\\b', 'a:b', 'a*b', 'a?b', 'a"b', 'a<b', 'a>b', 'a|b']) expect(folderNameError(bad), bad).toMatch(/no puede contener/)
    expect(folderNameError('.')).toBe('El nombre no puede ser «.» ni «..».')
    expect(folderNameError('..')).toBe('El nombre no puede ser «.» ni «..».')
  })

  it('is unique among siblings ignoring case, accents kept', () => {
    expect(folderNameError('plantillas', ['Plantillas', 'Tarifas 2026'])).toBe('Ya hay una carpeta «plantillas» aquí.')
    expect(folderNameError('ÁREA', ['área'])).toBe('Ya hay una carpeta «ÁREA» aquí.')
    expect(folderNameError('Area', ['Área'])).toBeNull()
  })
})

describe('sizes and counts', () => {
  it('reads like a person would say it', () => {
    expect(formatSize(0)).toBe('0 B')
    expect(formatSize(512)).toBe('512 B')
    expect(formatSize(1536)).toBe('1,5 KB')
    expect(formatSize(3.25 * MB)).toBe('3,3 MB')
    expect(formatSize(undefined)).toBe('—')
    expect(describeCount(2, 1)).toBe('2 archivos y 1 carpeta')
    expect(describeCount(1, 0)).toBe('1 archivo')
    expect(describeCount(0, 3)).toBe('3 carpetas')
  })
})

describe('requests', () => {
  it('sends the upload as CarpetaId plus one Archivos part per file', () => {
    const files = [new File(['hola'], 'a.txt', { type: 'text/plain' }), new File(['adiós'], 'b.csv')]
    const form = buildUploadForm(7, files)
    expect(form.get('CarpetaId')).toBe('7')
    expect((form.getAll('Archivos') as File[]).map((x) => x.name)).toEqual(['a.txt', 'b.csv'])
    expect(buildUploadForm(null, files).get('CarpetaId')).toBe('0')
  })

  it('names the selection as the contract does', () => {
    expect(selectionBodies(new Set([3, 4]), [9])).toEqual({ remove: { Carpetas: [9], Archivos: [3, 4] }, download: { ArchivoIds: [3, 4], CarpetaIds: [9] } })
  })
})

describe('the folder tree', () => {
  const folder = (Id: number, Nombre: string, Hijas: FolderNode[] = [], CarpetaPadreId: number | null = null): FolderNode => ({ Id, Nombre, CarpetaPadreId, NumArchivos: 1, NumCarpetas: Hijas.length, Fecha: '2026-01-01T00:00:00Z', Hijas })
  const roots = [folder(2, 'Tarifas 2026', [folder(5, 'Hogar', [], 2), folder(6, 'Empresas', [folder(8, 'Grandes cuentas', [], 6)], 2)]), folder(1, 'Plantillas')]

  it('hangs every folder under one root, sorted by name', () => {
    const [root] = toTreeNodes(roots)
    expect(root!.key).toBe('0')
    expect(root!.label).toBe('Archivos')
    expect(root!.children.map((c) => c.label)).toEqual(['Plantillas', 'Tarifas 2026'])
    expect(root!.children[1]!.children.map((c) => c.key)).toEqual(['6', '5'])
    expect(root!.children[0]!.leaf).toBe(true)
  })

  it('finds the way down to a folder and its siblings', () => {
    expect(pathTo(roots, 8)).toEqual([2, 6, 8])
    expect(pathTo(roots, 99)).toEqual([])
    expect(siblingNames(roots, 5)).toEqual(['Empresas'])
    expect(siblingNames(roots, 1)).toEqual(['Tarifas 2026'])
  })
})
