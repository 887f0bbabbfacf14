/**
 * Places of the demo data, consistent end to end: each municipality with its real postcodes,
 * the distributors whose network serves it (several where the real map has them, such as Madrid,
 * shared by i-DE and UFD) and its province's landline prefix. Ceuta and Melilla are left out:
 * their local distributors' CUPS codes are not among those the domain notes list.
 */

export interface Municipio {
  nombre: string
  provinciaId: number
  /** First and last postcode of the municipality (a range of real codes). */
  codigosPostales: readonly [string, string]
  /** Distributor codes serving it, with their share of its supply points. */
  distribuidoras: readonly (readonly [string, number])[]
}

const ID = '0021'
const UFD = '0022'
const EDIS = '0031'
const EREDES = '0026'
const VIESGO = '0027'

const m = (provinciaId: number, nombre: string, desde: string, hasta: string, distribuidoras: readonly (readonly [string, number])[]): Municipio => ({
  nombre,
  provinciaId,
  codigosPostales: [desde, hasta],
  distribuidoras,
})
const only = (code: string) => [[code, 1]] as const

export const MUNICIPIOS_LISTA: readonly Municipio[] = [
  m(1, 'Vitoria-Gasteiz', '01001', '01015', only(ID)), m(1, 'Laudio/Llodio', '01400', '01400', only(ID)),
  m(2, 'Albacete', '02001', '02008', only(ID)), m(2, 'Hellín', '02400', '02400', only(ID)),
  m(3, 'Alicante/Alacant', '03001', '03016', only(ID)), m(3, 'Elche/Elx', '03201', '03208', only(ID)), m(3, 'Benidorm', '03501', '03503', only(ID)),
  m(4, 'Almería', '04001', '04009', only(EDIS)), m(4, 'El Ejido', '04700', '04700', only(EDIS)),
  m(5, 'Ávila', '05001', '05005', only(ID)), m(5, 'Arévalo', '05200', '05200', only(ID)),
  m(6, 'Badajoz', '06001', '06011', [[ID, 3], [EDIS, 1]]), m(6, 'Mérida', '06800', '06800', only(ID)),
  m(7, 'Palma', '07001', '07015', only(EDIS)), m(7, 'Manacor', '07500', '07500', only(EDIS)), m(7, 'Eivissa', '07800', '07800', only(EDIS)),
  m(8, 'Barcelona', '08001', '08042', only(EDIS)), m(8, 'Terrassa', '08221', '08228', only(EDIS)), m(8, 'Sabadell', '08201', '08208', only(EDIS)), m(8, 'Mataró', '08301', '08304', only(EDIS)),
  m(9, 'Burgos', '09001', '09007', only(ID)), m(9, 'Aranda de Duero', '09400', '09400', only(ID)),
  m(10, 'Cáceres', '10001', '10005', only(ID)), m(10, 'Plasencia', '10600', '10600', only(ID)),
  m(11, 'Cádiz', '11001', '11012', only(EDIS)), m(11, 'Jerez de la Frontera', '11401', '11408', only(EDIS)), m(11, 'Algeciras', '11201', '11207', only(EDIS)),
  m(12, 'Castelló de la Plana', '12001', '12006', only(ID)), m(12, 'Vila-real', '12540', '12540', only(ID)),
  m(13, 'Ciudad Real', '13001', '13005', only(UFD)), m(13, 'Puertollano', '13500', '13500', only(UFD)),
  m(14, 'Córdoba', '14001', '14014', only(EDIS)), m(14, 'Lucena', '14900', '14900', only(EDIS)),
  m(15, 'A Coruña', '15001', '15011', only(UFD)), m(15, 'Santiago de Compostela', '15701', '15707', only(UFD)), m(15, 'Ferrol', '15401', '15406', only(UFD)),
  m(16, 'Cuenca', '16001', '16004', [[ID, 1], [UFD, 1]]), m(16, 'Tarancón', '16400', '16400', only(UFD)),
  m(17, 'Girona', '17001', '17007', only(EDIS)), m(17, 'Figueres', '17600', '17600', only(EDIS)),
  m(18, 'Granada', '18001', '18015', only(EDIS)), m(18, 'Motril', '18600', '18600', only(EDIS)),
  m(19, 'Guadalajara', '19001', '19005', [[UFD, 2], [ID, 1]]), m(19, 'Azuqueca de Henares', '19200', '19200', only(ID)),
  m(20, 'Donostia/San Sebastián', '20001', '20018', only(ID)), m(20, 'Irun', '20301', '20305', only(ID)),
  m(21, 'Huelva', '21001', '21007', only(EDIS)), m(21, 'Lepe', '21440', '21440', only(EDIS)),
  m(22, 'Huesca', '22001', '22006', only(EDIS)), m(22, 'Monzón', '22400', '22400', only(EDIS)),
  m(23, 'Jaén', '23001', '23009', only(EDIS)), m(23, 'Linares', '23700', '23700', only(EDIS)), m(23, 'Úbeda', '23400', '23400', only(EDIS)),
  m(24, 'León', '24001', '24010', [[UFD, 2], [ID, 1]]), m(24, 'Ponferrada', '24400', '24404', [[UFD, 1], [VIESGO, 1]]),
  m(25, 'Lleida', '25001', '25008', only(EDIS)), m(25, 'Balaguer', '25600', '25600', only(EDIS)),
  m(26, 'Logroño', '26001', '26009', only(ID)), m(26, 'Calahorra', '26500', '26500', only(ID)),
  m(27, 'Lugo', '27001', '27004', [[UFD, 3], [VIESGO, 1]]), m(27, 'Monforte de Lemos', '27400', '27400', only(UFD)),
  m(28, 'Madrid', '28001', '28055', [[ID, 3], [UFD, 2]]), m(28, 'Alcalá de Henares', '28801', '28807', only(ID)), m(28, 'Móstoles', '28931', '28938', only(UFD)), m(28, 'Getafe', '28901', '28909', [[UFD, 2], [ID, 1]]),
  m(29, 'Málaga', '29001', '29018', only(EDIS)), m(29, 'Marbella', '29600', '29604', only(EDIS)), m(29, 'Vélez-Málaga', '29700', '29700', only(EDIS)),
  m(30, 'Murcia', '30001', '30012', only(ID)), m(30, 'Cartagena', '30201', '30205', only(ID)), m(30, 'Lorca', '30800', '30800', only(ID)),
  m(31, 'Pamplona/Iruña', '31001', '31016', only(ID)), m(31, 'Tudela', '31500', '31500', only(ID)),
  m(32, 'Ourense', '32001', '32005', only(UFD)), m(32, 'Verín', '32600', '32600', only(UFD)),
  m(33, 'Oviedo', '33001', '33013', only(EREDES)), m(33, 'Gijón', '33201', '33213', only(EREDES)), m(33, 'Avilés', '33400', '33403', [[EREDES, 2], [ID, 1]]),
  m(34, 'Palencia', '34001', '34005', [[ID, 2], [UFD, 1]]), m(34, 'Aguilar de Campoo', '34800', '34800', only(VIESGO)),
  m(35, 'Las Palmas de Gran Canaria', '35001', '35019', only(EDIS)), m(35, 'Arrecife', '35500', '35500', only(EDIS)),
  m(36, 'Vigo', '36201', '36216', only(UFD)), m(36, 'Pontevedra', '36001', '36005', only(UFD)),
  m(37, 'Salamanca', '37001', '37008', only(ID)), m(37, 'Béjar', '37700', '37700', only(ID)),
  m(38, 'Santa Cruz de Tenerife', '38001', '38010', only(EDIS)), m(38, 'San Cristóbal de La Laguna', '38201', '38206', only(EDIS)),
  m(39, 'Santander', '39001', '39012', only(VIESGO)), m(39, 'Torrelavega', '39300', '39300', only(VIESGO)),
  m(40, 'Segovia', '40001', '40006', only(ID)), m(40, 'Cuéllar', '40200', '40200', only(ID)),
  m(41, 'Sevilla', '41001', '41020', only(EDIS)), m(41, 'Dos Hermanas', '41700', '41704', only(EDIS)), m(41, 'Écija', '41400', '41400', only(EDIS)),
  m(42, 'Soria', '42001', '42005', only(ID)), m(42, 'Almazán', '42200', '42200', only(ID)),
  m(43, 'Tarragona', '43001', '43008', only(EDIS)), m(43, 'Reus', '43201', '43206', only(EDIS)),
  m(44, 'Teruel', '44001', '44003', only(EDIS)), m(44, 'Alcañiz', '44600', '44600', only(EDIS)),
  m(45, 'Toledo', '45001', '45008', [[UFD, 2], [ID, 1]]), m(45, 'Talavera de la Reina', '45600', '45600', only(ID)),
  m(46, 'València', '46001', '46026', only(ID)), m(46, 'Gandia', '46700', '46702', only(ID)), m(46, 'Torrent', '46900', '46900', only(ID)),
  m(47, 'Valladolid', '47001', '47015', only(ID)), m(47, 'Medina del Campo', '47400', '47400', only(ID)),
  m(48, 'Bilbao', '48001', '48015', only(ID)), m(48, 'Barakaldo', '48901', '48903', only(ID)), m(48, 'Getxo', '48990', '48993', only(ID)),
  m(49, 'Zamora', '49001', '49008', [[ID, 2], [UFD, 1]]), m(49, 'Benavente', '49600', '49600', only(UFD)),
  m(50, 'Zaragoza', '50001', '50021', only(EDIS)), m(50, 'Calatayud', '50300', '50300', only(EDIS)),
]

/** The municipalities of each province (INE code). */
export const MUNICIPIOS: Record<number, readonly Municipio[]> = (() => {
  const out: Record<number, Municipio[]> = {}
  for (const x of MUNICIPIOS_LISTA) (out[x.provinciaId] ??= []).push(x)
  return out
})()

/** Landline prefix of each province (9 digits in all: the prefix, then the subscriber's number). */
export const PREFIJO_TELEFONICO: Record<number, string> = {
  1: '945', 2: '967', 3: '965', 4: '950', 5: '920', 6: '924', 7: '971', 8: '93', 9: '947', 10: '927',
  11: '956', 12: '964', 13: '926', 14: '957', 15: '981', 16: '969', 17: '972', 18: '958', 19: '949', 20: '943',
  21: '959', 22: '974', 23: '953', 24: '987', 25: '973', 26: '941', 27: '982', 28: '91', 29: '952', 30: '968',
  31: '948', 32: '988', 33: '985', 34: '979', 35: '928', 36: '986', 37: '923', 38: '922', 39: '942', 40: '921',
  41: '954', 42: '975', 43: '977', 44: '978', 45: '925', 46: '96', 47: '983', 48: '94', 49: '980', 50: '976',
  51: '956', 52: '952',
}

/** The municipality a postcode belongs to (within the demo's places), or undefined. */
export function municipioDeCodigoPostal(cp: string): Municipio | undefined {
  return MUNICIPIOS_LISTA.find((x) => cp >= x.codigosPostales[0] && cp <= x.codigosPostales[1])
}

/**
 * The distributor of a postcode: one of its municipality's, fixed per postcode (a street's
 * network belongs to one company), so every supply point of a postcode has the same one.
 */
export function distribuidoraDeCodigoPostal(cp: string): string | undefined {
  const muni = municipioDeCodigoPostal(cp)
  if (!muni) return undefined
  const total = muni.distribuidoras.reduce((s, [, w]) => s + w, 0)
  // A stable spread of the postcodes over the distributors by their shares.
  let x = ((Number(cp) * 2654435761) >>> 0) % 1000 / 1000 * total
  for (const [code, w] of muni.distribuidoras) {
    x -= w
    if (x < 0) return code
  }
  return muni.distribuidoras[muni.distribuidoras.length - 1]![0]
}

export const DISTRIBUIDORAS: Record<string, string> = {
  '0021': 'i-DE Redes Eléctricas Inteligentes',
  '0022': 'UFD Distribución Electricidad',
  '0026': 'E-Redes Distribución Eléctrica',
  '0027': 'Viesgo Distribución Eléctrica',
  '0031': 'e-distribución Redes Digitales',
}
