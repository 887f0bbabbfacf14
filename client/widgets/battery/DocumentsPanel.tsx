import { useMutation } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { useState, type FormEvent } from 'react'
import { api, saveFile } from '../../api/client'
import { reportError } from '../../api/errors'
import { notifySuccess } from '../../api/toast'
import { messageIn, useMessages } from '../../i18n/i18n'
import { formatValue } from '../../ui/format'
import { TextField } from './fields'
import { messages } from './messages'
import { emailError, formatCapacity, formatEurRounded } from './model'
import type { BatteryResult, CalculationBody } from '../../../schemas/business/battery'

interface Client {
  Nombre: string
  Nif: string
  Email: string
  Direccion: string
}

/** The client's data for the offer and the contract PDFs, and saving the calculation under a name. */
export function DocumentsPanel({ body, result }: { body: CalculationBody; result: BatteryResult }) {
  const t = useMessages(messages)
  const [client, setClient] = useState<Client>({ Nombre: '', Nif: '', Email: '', Direccion: '' })
  const [errors, setErrors] = useState<Partial<Record<keyof Client, string>>>({})
  // A flagged field is cleared when it changes, so its message can be worded now from what it holds (and follow a language switch).
  const errorOf = (k: 'Nombre' | 'Email') => (!errors[k] ? undefined : k === 'Nombre' ? t('docs.name.required') : (emailError(client.Email) ?? undefined))
  const [busy, setBusy] = useState<'oferta' | 'contrato' | null>(null)
  const battery = `${result.Bateria.Fabricante} ${result.Bateria.Modelo}`

  const setField = (k: keyof Client, v: string) => {
    setClient((c) => ({ ...c, [k]: v }))
    if (errors[k]) setErrors((e) => ({ ...e, [k]: undefined }))
  }

  const download = async (kind: 'oferta' | 'contrato') => {
    const found: Partial<Record<keyof Client, string>> = {}
    if (!client.Nombre.trim()) found.Nombre = messageIn(messages, 'docs.name.required')
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
      notifySuccess(messageIn(messages, 'area'), messageIn(messages, kind === 'oferta' ? 'docs.offer.done' : 'docs.contract.done', { file: file.fileName }))
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
          {t('docs.title')}
        </h3>
        <p className="field-help battery__chosen">
          {t('docs.chosen')} <strong>{battery}</strong> ({formatCapacity(result.Bateria.CapacidadUtilKwh)}, {formatEurRounded(result.Bateria.PrecioEur)}).
        </p>
        <div className="battery__grid battery__grid--two">
          <TextField id="bat-cliente-Nombre" label={t('docs.name')} required value={client.Nombre} onChange={(v) => setField('Nombre', v)} error={errorOf('Nombre')} autoComplete="name" maxLength={200} />
          <TextField id="bat-cliente-Nif" label="NIF" value={client.Nif} onChange={(v) => setField('Nif', v.toUpperCase())} maxLength={20} />
          <TextField id="bat-cliente-Email" label={t('docs.email')} type="email" value={client.Email} onChange={(v) => setField('Email', v)} error={errorOf('Email')} autoComplete="email" maxLength={200} />
          <TextField id="bat-cliente-Direccion" label={t('docs.address')} value={client.Direccion} onChange={(v) => setField('Direccion', v)} autoComplete="street-address" maxLength={300} />
        </div>
        <div className="action-bar">
          <Button type="button" label={t('docs.offer')} icon="pi pi-file-pdf" loading={busy === 'oferta'} disabled={busy !== null} onClick={() => void download('oferta')} />
          <Button type="button" label={t('docs.contract')} icon="pi pi-file-edit" outlined loading={busy === 'contrato'} disabled={busy !== null} onClick={() => void download('contrato')} />
        </div>
      </form>
      <SavePanel body={body} result={result} clientName={client.Nombre} />
    </div>
  )
}

function SavePanel({ body, result, clientName }: { body: CalculationBody; result: BatteryResult; clientName: string }) {
  const t = useMessages(messages)
  const [name, setName] = useState('')
  const [missing, setMissing] = useState(false)
  const suggested = `${clientName.trim() || t('save.default')} · ${result.Bateria.Modelo} · ${formatValue(new Date().toISOString().slice(0, 10), 'date')}`
  const save = useMutation({
    mutationFn: (Nombre: string) => api.post<{ Id: number; Nombre: string; Fecha: string }>('/api/bateria/savedata', { Nombre, Calculo: body, Resultado: result }),
    meta: { reportErrors: true },
    onSuccess: (saved) => notifySuccess(messageIn(messages, 'area'), messageIn(messages, 'save.done', { name: saved?.Nombre ?? name })),
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const Nombre = (name.trim() || suggested).slice(0, 200)
    if (!Nombre) {
      setMissing(true)
      return
    }
    setMissing(false)
    save.mutate(Nombre)
  }
  return (
    <form className="card screen-form battery__save" aria-labelledby="bat-save-title" noValidate onSubmit={submit}>
      <h3 id="bat-save-title" className="screen-form__title">
        {t('save.title')}
      </h3>
      <TextField
        id="bat-save-Nombre"
        label={t('save.name')}
        value={name}
        onChange={(v) => setName(v)}
        error={missing ? t('save.name.required') : undefined}
        maxLength={200}
        placeholder={suggested}
        hint={t('save.hint')}
      />
      <div className="action-bar">
        <Button type="submit" label={t('save.title')} icon="pi pi-save" severity="secondary" loading={save.isPending} />
      </div>
    </form>
  )
}
