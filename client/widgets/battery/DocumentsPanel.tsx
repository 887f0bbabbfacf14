import { useMutation } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { useState, type FormEvent } from 'react'
import { api, saveFile } from '../../api/client'
import { reportError } from '../../api/errors'
import { notifySuccess } from '../../api/toast'
import { formatValue } from '../../renderer/format'
import { TextField } from './fields'
import { emailError, formatCapacity, formatEurRounded, type BatteryResult, type CalculationBody } from './model'

const AREA = 'Baterías'

interface Client {
  Nombre: string
  Nif: string
  Email: string
  Direccion: string
}

/** The client's data for the offer and the contract PDFs, and saving the calculation under a name. */
export function DocumentsPanel({ body, result }: { body: CalculationBody; result: BatteryResult }) {
  const [client, setClient] = useState<Client>({ Nombre: '', Nif: '', Email: '', Direccion: '' })
  const [errors, setErrors] = useState<Partial<Record<keyof Client, string>>>({})
  const [busy, setBusy] = useState<'oferta' | 'contrato' | null>(null)
  const battery = `${result.Bateria.Fabricante} ${result.Bateria.Modelo}`

  const setField = (k: keyof Client, v: string) => {
    setClient((c) => ({ ...c, [k]: v }))
    if (errors[k]) setErrors((e) => ({ ...e, [k]: undefined }))
  }

  const download = async (kind: 'oferta' | 'contrato') => {
    const found: Partial<Record<keyof Client, string>> = {}
    if (!client.Nombre.trim()) found.Nombre = 'Indica el nombre del cliente para el documento.'
    const mail = emailError(client.Email)
    if (mail) found.Email = mail
    setErrors(found)
    if (found.Nombre || found.Email) {
      document.getElementById(found.Nombre ? 'bat-cliente-Nombre' : 'bat-cliente-Email')?.focus()
      return
    }
    const Cliente: Record<string, string> = { Nombre: client.Nombre.trim() }
    for (const k of ['Nif', 'Email', 'Direccion'] as const) if (client[k].trim()) Cliente[k] = client[k].trim()
    setBusy(kind)
    try {
      // Both calls spelled out: the client's calls are checked against the endpoint catalogue.
      const file = await api.download(kind === 'oferta' ? '/api/bateria/oferta' : '/api/bateria/contrato', {
        method: 'POST',
        body: { Calculo: body, BateriaId: result.Bateria.Id, Cliente },
        fallbackName: `${kind}-bateria.pdf`,
      })
      saveFile(file)
      notifySuccess(AREA, kind === 'oferta' ? `Oferta descargada (${file.fileName}).` : `Contrato descargado (${file.fileName}).`)
    } catch (err) {
      reportError(undefined, err)
    } finally {
      setBusy(null)
    }
  }

  return (
    <div className="battery__panels">
      <form
        className="card screen-form battery__client"
        aria-labelledby="bat-client-title"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void download('oferta')
        }}
      >
        <h3 id="bat-client-title" className="screen-form__title">
          Oferta y contrato
        </h3>
        <p className="field-help battery__chosen">
          Batería elegida: <strong>{battery}</strong> ({formatCapacity(result.Bateria.CapacidadUtilKwh)}, {formatEurRounded(result.Bateria.PrecioEur)}).
        </p>
        <div className="battery__grid battery__grid--two">
          <TextField id="bat-cliente-Nombre" label="Nombre del cliente" required value={client.Nombre} onChange={(v) => setField('Nombre', v)} error={errors.Nombre} autoComplete="name" maxLength={200} />
          <TextField id="bat-cliente-Nif" label="NIF" value={client.Nif} onChange={(v) => setField('Nif', v.toUpperCase())} maxLength={20} />
          <TextField id="bat-cliente-Email" label="Correo electrónico" type="email" value={client.Email} onChange={(v) => setField('Email', v)} error={errors.Email} autoComplete="email" maxLength={200} />
          <TextField id="bat-cliente-Direccion" label="Dirección" value={client.Direccion} onChange={(v) => setField('Direccion', v)} autoComplete="street-address" maxLength={300} />
        </div>
        <div className="action-bar">
          <Button type="button" label="Oferta (PDF)" icon="pi pi-file-pdf" loading={busy === 'oferta'} disabled={busy !== null} onClick={() => void download('oferta')} />
          <Button type="button" label="Contrato (PDF)" icon="pi pi-file-edit" outlined loading={busy === 'contrato'} disabled={busy !== null} onClick={() => void download('contrato')} />
        </div>
      </form>
      <SavePanel body={body} result={result} clientName={client.Nombre} />
    </div>
  )
}

function SavePanel({ body, result, clientName }: { body: CalculationBody; result: BatteryResult; clientName: string }) {
  const [name, setName] = useState('')
  const [error, setError] = useState<string | undefined>()
  const suggested = `${clientName.trim() || 'Cálculo'} · ${result.Bateria.Modelo} · ${formatValue(new Date().toISOString().slice(0, 10), 'date')}`
  const save = useMutation({
    mutationFn: (Nombre: string) => api.post<{ Id: number; Nombre: string; Fecha: string }>('/api/bateria/savedata', { Nombre, Calculo: body, Resultado: result }),
    meta: { reportErrors: true },
    onSuccess: (saved) => notifySuccess(AREA, `Cálculo «${saved?.Nombre ?? name}» guardado.`),
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const Nombre = (name.trim() || suggested).slice(0, 200)
    if (!Nombre) {
      setError('Indica un nombre para el cálculo.')
      return
    }
    setError(undefined)
    save.mutate(Nombre)
  }
  return (
    <form className="card screen-form battery__save" aria-labelledby="bat-save-title" noValidate onSubmit={submit}>
      <h3 id="bat-save-title" className="screen-form__title">
        Guardar cálculo
      </h3>
      <TextField
        id="bat-save-Nombre"
        label="Nombre del cálculo"
        value={name}
        onChange={(v) => setName(v)}
        error={error}
        maxLength={200}
        placeholder={suggested}
        hint="Se guarda con tus datos de entrada y la batería elegida. Vacío: se usa el nombre propuesto."
      />
      <div className="action-bar">
        <Button type="submit" label="Guardar cálculo" icon="pi pi-save" severity="secondary" loading={save.isPending} />
      </div>
    </form>
  )
}
