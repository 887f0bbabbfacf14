import type { Readable } from 'node:stream'
import { ApiFailure } from './http'

/** @fastify/multipart's limit and format errors, in Spanish, for an upload of at most `maxFiles` files of `maxBytes` each. */
export function multipartFailure(err: unknown, limits: { maxFiles: number; maxBytes: number }): unknown {
  switch ((err as { code?: string } | null)?.code) {
    case 'FST_FILES_LIMIT':
      return new ApiFailure(413, `Como máximo se pueden subir ${limits.maxFiles} archivos a la vez.`)
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiFailure(413, `Un archivo supera el tamaño máximo de ${limits.maxBytes / (1024 * 1024)} MB.`)
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ApiFailure(413, 'El formulario tiene demasiados campos.')
    case 'FST_PROTO_VIOLATION':
      return new ApiFailure(400, 'El formulario tiene un nombre de campo no permitido.')
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ApiFailure(400, 'La petición debe ser multipart/form-data.')
    case 'FST_MP_PREMATURE_CLOSE':
      return new ApiFailure(400, 'La subida se ha interrumpido antes de terminar.')
    default:
      return err
  }
}

/** Reads a refused part to its end, so the rest of the request can still be parsed. */
export async function drain(stream: Readable): Promise<void> {
  for await (const _chunk of stream) {
    // discard
  }
}
