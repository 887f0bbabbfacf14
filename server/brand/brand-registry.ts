import fs from 'node:fs'
import path from 'node:path'
import { BrandFile, type PublicBrand } from '../../schemas/brand'
import { validatorFor } from '../lib/validate'

export interface Brand extends BrandFile {
  key: string
  dir: string
}

/** The brand picked when the host names none of ours (localhost, IPs, unknown labels). */
export const DEFAULT_BRAND_KEY = 'verde'

const checkBrandFile = validatorFor<BrandFile>(BrandFile)

export interface BrandRegistry {
  all: Brand[]
  byKey(key: string): Brand | undefined
  /** Host header → brand; never fails. */
  resolve(host: string | undefined): Brand
  default: Brand
}

/** Loads and validates every `brands/<key>/brand.json`; a bad file stops the start. */
export function loadBrands(brandsDir: string): BrandRegistry {
  const brands: Brand[] = []
  for (const key of fs.readdirSync(brandsDir).sort()) {
    const dir = path.join(brandsDir, key)
    const file = path.join(dir, 'brand.json')
    if (!fs.existsSync(file)) continue
    const data = checkBrandFile(JSON.parse(fs.readFileSync(file, 'utf8')), file)
    for (const asset of [data.Icon.Light, data.Icon.Dark, data.LogoIdentidad.Light, data.LogoIdentidad.Dark, data.Favicon]) {
      if (!fs.existsSync(path.join(dir, asset))) throw new Error(`${file}: falta el fichero ${asset}`)
    }
    brands.push({ ...data, key, dir })
  }
  const byKey = new Map(brands.map((b) => [b.key, b]))
  const byLabel = new Map(brands.map((b) => [b.Domain.split('.')[0]!, b]))
  const fallback = byKey.get(DEFAULT_BRAND_KEY)
  if (!fallback) throw new Error(`${brandsDir}: falta la marca por defecto «${DEFAULT_BRAND_KEY}»`)
  return {
    all: brands,
    default: fallback,
    byKey: (key) => byKey.get(key),
    resolve(host) {
      const label = brandLabelFromHost(host)
      return (label && byLabel.get(label)) || fallback
    },
  }
}

/**
 * The second label of a host name (`portal.energialimpia.es` → `energialimpia`), lower case,
 * without port. IP addresses and single-label hosts have none.
 */
export function brandLabelFromHost(host: string | undefined): string | null {
  if (!host) return null
  let name = host.trim().toLowerCase()
  if (name.startsWith('[')) return null // IPv6 literal, with or without port
  name = name.replace(/:\d+$/, '').replace(/\.$/, '')
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.includes(':')) return null
  const labels = name.split('.')
  return labels.length >= 2 && labels[1] ? labels[1] : null
}

/** The brand as the browser sees it: URLs served by the BFF, no file names. */
export function publicBrand(brand: Brand): PublicBrand {
  const asset = (file: string) => `/bff/brand/${brand.key}/${file}`
  return {
    key: brand.key,
    domain: brand.Domain,
    name: brand.Name,
    theme: brand.Theme,
    primaryColor: brand.PrimaryColor,
    icon: { light: asset(brand.Icon.Light), dark: asset(brand.Icon.Dark) },
    logo: { light: asset(brand.LogoIdentidad.Light), dark: asset(brand.LogoIdentidad.Dark) },
    favicon: asset(brand.Favicon),
  }
}
