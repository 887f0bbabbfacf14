import type Database from 'better-sqlite3'
import type { FastifyInstance } from 'fastify'
import { PERIODOS } from '../../domain/contract-rules'
import { COLECTIVOS, TIPOS_ALTA, TIPOS_COMISION, TIPOS_IMPRESION, cnaeByCodigo, provinciaById, tarifaById, tipoRef } from '../../lib/catalogos'
import { parseContractCode } from '../../lib/codigos'
import type { ApiContext, Marca } from '../../lib/context'
import { BrandPdf, brandIdentity, fechaEs, ibanEnmascarado, numeroEs, sendPdf } from '../../lib/pdf'
import { callerScope } from '../../lib/visibility'
import { visibleContract } from '../business/shared'
import { contractFacts, estadoNombre, type ContractFacts } from './shared'

const place = (dir: string, cp: string, municipio: string, provinciaId: number) => `${dir}, ${cp} ${municipio} (${provinciaById.get(provinciaId)?.Nombre ?? '—'})`

/**
 * "Contrato de suministro de energía eléctrica": the contract's particular conditions and
 * short general conditions, with the brand's logo; the code is printed as text (title line
 * and a framed key figure) so searches and text extractors find it. `signedCopy` adds the
 * electronic-signature evidence (the download of a seeded signed contract).
 */
export async function contractPdfBuffer(ctx: { db: Database.Database; brandsDir: string; now: () => number }, marca: Marca, f: ContractFacts, opts: { signedCopy?: boolean } = {}): Promise<Buffer> {
  const { db } = ctx
  const brand = brandIdentity(ctx.brandsDir, marca)
  const tarifa = tarifaById.get(f.tarifa_id)
  const estado = estadoNombre(f.estado)
  const pdf = new BrandPdf(brand, {
    title: 'Contrato de suministro de energía eléctrica',
    subtitle: `Contrato ${f.codigo} · Estado: ${estado} · Fecha de alta ${fechaEs(f.fecha_alta)}`,
    subject: `Contrato de suministro ${f.codigo}`,
  })
  pdf.highlight('Número de contrato', f.codigo)
  pdf.paragraph(
    `Condiciones particulares del contrato de suministro de energía eléctrica entre ${brand.nombre} (la comercializadora) y el titular ` +
      'identificado a continuación, para el punto de suministro indicado.',
    { size: 9.5 },
  )

  const holder: [string, string | null][] =
    f.cl_tipo === 'juridica'
      ? [
          ['Razón social', f.cl_razon_social],
          ['CIF', f.cl_nif],
          ['Forma jurídica', f.cl_forma_juridica],
        ]
      : [
          ['Nombre y apellidos', f.cl_titular],
          [f.cl_nif.match(/^[XYZ]/) ? 'NIE' : 'DNI', f.cl_nif],
        ]
  pdf.section('Titular').keyValues([
    ...holder,
    ['Dirección', place(f.cl_direccion, f.cl_codigo_postal, f.cl_municipio, f.cl_provincia_id)],
    ['Correo electrónico', f.cl_email],
    ['Teléfono', f.cl_telefono],
  ])

  const cnae = f.cnae ? `${f.cnae} — ${cnaeByCodigo.get(f.cnae)?.Nombre ?? ''}` : null
  pdf.section('Punto de suministro').keyValues([
    ['CUPS', f.ps_cups],
    ['Dirección de suministro', place(f.ps_direccion, f.ps_codigo_postal, f.ps_municipio, f.ps_provincia_id)],
    ['Distribuidora', `${f.ps_distribuidora_nombre} (${f.ps_distribuidora_codigo})`],
    ['Tarifa de acceso', tarifa?.Nombre ?? String(f.tarifa_id)],
    ['CNAE', cnae],
  ])

  // Powers and prices in one table: a row per period of the tariff.
  const fixed = f.modalidad === 'fijo'
  const periods = PERIODOS.slice(0, Math.max(tarifa?.PeriodosPotencia ?? 6, tarifa?.PeriodosEnergia ?? 6))
  pdf.section('Potencias contratadas y precios')
  pdf.paragraph(
    fixed
      ? 'Modalidad de precio fijo: los precios del término de energía se mantienen durante el año de contrato.'
      : `Modalidad indexada al mercado diario (OMIE) con un fee de gestión de ${numeroEs(f.fee_mwh, 2)} €/MWh: precio horario de la energía = ` +
          '(precio del mercado diario + fee de gestión) × (1 + pérdidas) + peajes y cargos del periodo vigentes.',
    { size: 9.5 },
  )
  const cell = (v: number | null, decimals: number, min: number, unit: string) => (v === null ? null : `${numeroEs(v, decimals, min)} ${unit}`)
  pdf.table(
    [
      { header: 'Periodo', width: 0.16 },
      { header: 'Potencia contratada', width: 0.26, align: 'right' },
      { header: 'Término de potencia', width: 0.29, align: 'right' },
      { header: fixed ? 'Término de energía' : 'Energía', width: 0.29, align: 'right' },
    ],
    periods.map((p) => [
      p,
      cell(f.potencias[p], 3, 2, 'kW'),
      cell(f.preciosPotencia[p], 6, 6, '€/kW día'),
      fixed ? cell(f.preciosEnergia[p], 6, 6, '€/kWh') : 'OMIE + fee',
    ]),
  )
  if (!fixed) pdf.keyValues([['Fee de gestión', `${numeroEs(f.fee_mwh, 2)} €/MWh`]])
  pdf.paragraph('Precios sin impuestos: se añaden el impuesto especial sobre la electricidad (5,11269632 %), el alquiler de equipos de medida y el IVA (21 %).', {
    muted: true,
    size: 8.5,
  })

  const tipoAlta = tipoRef(TIPOS_ALTA, f.tipo_alta_solicitud_id)
  const agente = f.agente_id === null ? null : `${f.a_nombre} (${f.a_codigo})${f.a_email ? ` · ${f.a_email}` : ''}`
  pdf.section('Datos de la contratación').keyValues([
    ['Tipo de solicitud', tipoAlta?.Nombre ?? null],
    ['Envío de la factura', tipoRef(TIPOS_IMPRESION, f.tipo_impresion_factura_id)?.Nombre ?? null],
    ['Colectivo', tipoRef(COLECTIVOS, f.colectivo_id)?.Nombre ?? null],
    ['Comisión del canal', tipoRef(TIPOS_COMISION, f.tipo_comision_id)?.Nombre ?? null],
    ['Consumo anual estimado', f.consumo_anual_kwh === null ? null : `${numeroEs(f.consumo_anual_kwh, 0)} kWh`],
    ['Agente comercial', agente],
    ['Estado del contrato', estado],
    ['Fecha de alta', fechaEs(f.fecha_alta)],
    ['Fecha de firma', f.fecha_firma ? fechaEs(f.fecha_firma) : null],
    ['Fecha de activación', f.fecha_activacion ? fechaEs(f.fecha_activacion) : null],
    ['Próxima renovación', f.fecha_proxima_renovacion ? fechaEs(f.fecha_proxima_renovacion) : null],
  ])

  pdf.section('Domiciliación bancaria').keyValues([
    ['IBAN', ibanEnmascarado(f.iban)],
    ['Titular de la cuenta', f.cl_titular],
  ])
  if (f.observaciones) pdf.section('Observaciones').paragraph(f.observaciones, { size: 9.5 })

  pdf.section('Condiciones generales (resumen)')
  const conditions = [
    `1. Objeto. ${brand.nombre} suministra la energía eléctrica del punto de suministro indicado; la distribuidora ${f.ps_distribuidora_nombre} es responsable de la red, la lectura y las averías.`,
    '2. Duración. El contrato dura un año desde la activación del suministro y se renueva tácitamente por periodos de un año si ninguna de las partes comunica lo contrario con al menos 15 días de antelación.',
    '3. Derecho de desistimiento. El titular consumidor puede desistir del contrato en un plazo de 14 días naturales desde su firma, sin indicar el motivo y sin penalización alguna.',
    '4. Resolución anticipada. Si el titular resuelve el contrato durante el primer año de suministro, la comercializadora podrá aplicar una penalización de como máximo el 5 % del precio del contrato por la energía estimada pendiente de suministrar hasta el final de ese año. No hay penalización en los años de renovación si la baja se comunica con 15 días de antelación.',
    '5. Facturación y pago. La facturación es mensual según las lecturas de la distribuidora y se cobra por domiciliación bancaria en la cuenta indicada.',
    '6. Datos personales. Los datos se tratan para la gestión del contrato y del suministro conforme al Reglamento (UE) 2016/679; el titular puede ejercer sus derechos ante la comercializadora.',
  ]
  for (const c of conditions) pdf.paragraph(c, { size: 8.8 })

  const signature = opts.signedCopy
    ? (db
        .prepare("SELECT solicitud_id, firmada_en FROM contrato_firmas WHERE contrato_id = ? AND estado = 'firmada' ORDER BY firmada_en DESC LIMIT 1")
        .get(f.id) as { solicitud_id: string; firmada_en: string } | undefined)
    : undefined
  const signedOn = signature?.firmada_en ?? (f.fecha_firma ? `${f.fecha_firma}T00:00:00Z` : null)
  pdf.signatureBoxes([
    {
      caption: 'Firma del titular',
      lines: signedOn
        ? [`Firmado electrónicamente el ${fechaEs(signedOn)}`, signature ? `Solicitud ${signature.solicitud_id} · Firma electrónica Portal` : `${f.cl_titular} · ${f.cl_nif}`]
        : [`${f.cl_titular} · ${f.cl_nif}`],
    },
    { caption: `Por ${brand.nombre}`, lines: [brand.dominio] },
  ])
  pdf.paragraph(`Documento generado el ${fechaEs(new Date(ctx.now()).toISOString())} · Contrato ${f.codigo}.`, { muted: true, size: 8 })
  return pdf.toBuffer()
}

/** `GET /api/contract/print?codigoContrato=` (spec §7): the contract as a PDF download. */
export async function printRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db } = opts
  app.get('/api/contract/print', async (request, reply) => {
    const code = parseContractCode((request.query as Record<string, unknown>).codigoContrato, 'codigoContrato')
    const ref = visibleContract(db, callerScope(db, request), code)
    const facts = contractFacts(db, ref.id)!
    const pdf = await contractPdfBuffer(opts, request.marca, facts)
    return sendPdf(reply, pdf, `contrato-${code}.pdf`)
  })
}
