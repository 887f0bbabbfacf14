import Type from 'typebox'
import { CLOSED, Instant, Nullable } from './common'

/** Files and folders (spec §7 Files). The root is "no folder": `null` in answers, `0` in parameters. */

const folderFields = {
  Id: Type.Integer(),
  Nombre: Type.String(),
  /** `null`: at the root. */
  CarpetaPadreId: Nullable(Type.Integer()),
  /** Files directly inside. */
  NumArchivos: Type.Integer({ minimum: 0 }),
  /** Folders directly inside. */
  NumCarpetas: Type.Integer({ minimum: 0 }),
  /** When it was created. */
  Fecha: Instant,
}

export const Folder = Type.Object(folderFields, CLOSED)
export type Folder = Type.Static<typeof Folder>

/** `GET api/folders`: the tree, a folder with its subfolders (`Hijas`). */
export const FolderNode = Type.Cyclic({ FolderNode: Type.Object({ ...folderFields, Hijas: Type.Array(Type.Ref('FolderNode')) }, CLOSED) }, 'FolderNode')
export type FolderNode = Type.Static<typeof FolderNode>
export const FolderTree = Type.Array(FolderNode)

export const FileItem = Type.Object(
  {
    Id: Type.Integer(),
    /** The name shown (and used for downloads). */
    Nombre: Type.String(),
    /** Lower case, without the dot: `pdf`. */
    Extension: Type.String(),
    /** From the extension, never the type the client sent. */
    TipoMime: Type.String(),
    /** Bytes (`null` when not known). */
    Tamano: Nullable(Type.Integer({ minimum: 0 })),
    /** `null`: at the root. */
    CarpetaId: Nullable(Type.Integer()),
    /** When it was uploaded. */
    Fecha: Instant,
    /** Who uploaded it. */
    Usuario: Type.String(),
  },
  CLOSED,
)
export type FileItem = Type.Static<typeof FileItem>

/** `GET api/folder?id=`: a folder (none for the root), the path to it, what it holds. */
export const FolderView = Type.Object(
  {
    Carpeta: Nullable(Folder),
    Ruta: Type.Array(Type.Object({ Id: Type.Integer(), Nombre: Type.String() }, CLOSED)),
    Carpetas: Type.Array(Folder),
    Archivos: Type.Array(FileItem),
  },
  CLOSED,
)
export type FolderView = Type.Static<typeof FolderView>
