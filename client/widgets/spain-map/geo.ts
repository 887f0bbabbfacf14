import { geoConicConformal, geoPath, type GeoPermissibleObjects } from 'd3-geo'
import type { Feature, FeatureCollection, Geometry } from 'geojson'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import atlas from 'es-atlas/es/provinces.json'

/**
 * Spain by province, drawn from the IGN's TopoJSON (`es-atlas`): a conic conformal projection
 * for the peninsula, the Balearic Islands, Ceuta and Melilla, and the Canary Islands moved into
 * an inset box at the bottom left (as Spanish maps do). No tile server: plain SVG paths.
 */

export const MAP_WIDTH = 860
export const MAP_HEIGHT = 640
const MARGIN = 10
const INSET_PAD = 8
/** The Canary Islands drawn a bit smaller than the peninsula's scale, to fit their box. */
const CANARY_SCALE = 0.75
const CANARY_IDS = new Set(['35', '38'])
/** Features of the atlas that are not a province (Gibraltar). */
const NOT_PROVINCES = new Set(['54'])
/** Provinces too small to point at: a marker circle is drawn over them. */
const MIN_TARGET_PX = 12

export interface AtlasProvince {
  /** The atlas id: the INE province code, `01`…`52`. */
  id: string
  name: string
}

export interface ProvinceShape extends AtlasProvince {
  d: string
  centroid: [number, number]
  bounds: [[number, number], [number, number]]
  /** Small provinces (Ceuta, Melilla) get a marker of this radius so they can be pointed at. */
  marker: number | null
  inset: boolean
}

export interface SpainMapGeometry {
  width: number
  height: number
  provinces: ProvinceShape[]
  /** The Canary Islands' box. */
  inset: { x: number; y: number; width: number; height: number }
}

type ProvinceFeature = Feature<Geometry, { name: string }> & { id?: string | number }

/** The atlas's province features (Gibraltar left out). */
export function atlasProvinces(): ProvinceFeature[] {
  const topo = atlas as unknown as Topology<{ provinces: GeometryCollection<{ name: string }> }>
  const fc = feature(topo, topo.objects.provinces) as FeatureCollection<Geometry, { name: string }>
  return (fc.features as ProvinceFeature[]).filter((f) => !NOT_PROVINCES.has(String(f.id)))
}

const collection = (features: ProvinceFeature[]): GeoPermissibleObjects => ({ type: 'FeatureCollection', features }) as GeoPermissibleObjects

let cached: SpainMapGeometry | null = null

/** Paths, centroids and bounds of every province in a MAP_WIDTH × MAP_HEIGHT box (computed once). */
export function spainGeometry(): SpainMapGeometry {
  if (cached) return cached
  const features = atlasProvinces()
  const mainland = features.filter((f) => !CANARY_IDS.has(String(f.id)))
  const canary = features.filter((f) => CANARY_IDS.has(String(f.id)))

  const main = geoConicConformal()
    .parallels([36, 43.5])
    .rotate([3.7, 0])
    .fitExtent(
      [
        [MAP_WIDTH * 0.15, MARGIN],
        [MAP_WIDTH - MARGIN, MAP_HEIGHT - 3 * MARGIN],
      ],
      collection(mainland),
    )
  const islands = geoConicConformal()
    .parallels([27.5, 29.5])
    .rotate([15.8, 0])
    .scale(main.scale() * CANARY_SCALE)
    .translate([0, 0])
  const raw = geoPath(islands).bounds(collection(canary))
  const insetWidth = raw[1][0] - raw[0][0] + 2 * INSET_PAD
  const insetHeight = raw[1][1] - raw[0][1] + 2 * INSET_PAD
  const inset = { x: MARGIN, y: MAP_HEIGHT - MARGIN - insetHeight, width: insetWidth, height: insetHeight }
  islands.translate([inset.x + INSET_PAD - raw[0][0], inset.y + INSET_PAD - raw[0][1]])

  const mainPath = geoPath(main)
  const islandPath = geoPath(islands)
  const provinces = features.map((f): ProvinceShape => {
    const isInset = CANARY_IDS.has(String(f.id))
    const path = isInset ? islandPath : mainPath
    const bounds = path.bounds(f) as [[number, number], [number, number]]
    const size = Math.max(bounds[1][0] - bounds[0][0], bounds[1][1] - bounds[0][1])
    return {
      id: String(f.id),
      name: f.properties?.name ?? String(f.id),
      d: path(f) ?? '',
      centroid: path.centroid(f) as [number, number],
      bounds,
      marker: size < MIN_TARGET_PX ? 7 : null,
      inset: isInset,
    }
  })
  cached = { width: MAP_WIDTH, height: MAP_HEIGHT, provinces, inset }
  return cached
}
