import Type from 'typebox'

/** Light and dark variants of one piece of artwork, as file names inside the brand folder. */
const LightDark = Type.Object(
  {
    Light: Type.String({ pattern: '^[a-z0-9-]+\\.(svg|png|ico)$' }),
    Dark: Type.String({ pattern: '^[a-z0-9-]+\\.(svg|png|ico)$' }),
  },
  { additionalProperties: false },
)

/** PrimeReact theme family used for the brand; the dark variant is derived from it. */
export const BrandTheme = Type.Union([
  Type.Literal('lara-light-green'),
  Type.Literal('lara-light-cyan'),
  Type.Literal('lara-light-teal'),
])
export type BrandTheme = Type.Static<typeof BrandTheme>

/** `brands/<key>/brand.json`, as the spec names its fields. */
export const BrandFile = Type.Object(
  {
    Domain: Type.String({ pattern: '^[a-z0-9-]+(\\.[a-z0-9-]+)+$' }),
    Name: Type.String({ minLength: 1, maxLength: 60 }),
    Theme: BrandTheme,
    /** Primary colour as a hex value, used where the PrimeReact theme does not reach (SVG, PDF). */
    PrimaryColor: Type.String({ pattern: '^#[0-9a-fA-F]{6}$' }),
    Icon: LightDark,
    LogoIdentidad: LightDark,
    Favicon: Type.String({ pattern: '^[a-z0-9-]+\\.(svg|png|ico)$' }),
  },
  { additionalProperties: false },
)
export type BrandFile = Type.Static<typeof BrandFile>

/** What the browser learns about the brand: no file names, only URLs it can load. */
export const PublicBrand = Type.Object({
  key: Type.String(),
  domain: Type.String(),
  name: Type.String(),
  theme: BrandTheme,
  primaryColor: Type.String(),
  icon: Type.Object({ light: Type.String(), dark: Type.String() }),
  logo: Type.Object({ light: Type.String(), dark: Type.String() }),
  favicon: Type.String(),
})
export type PublicBrand = Type.Static<typeof PublicBrand>
