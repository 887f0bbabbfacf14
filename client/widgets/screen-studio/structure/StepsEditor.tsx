import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { messageIn, useMessages } from '../../../i18n/i18n'
import { confirm } from '../../../ui/confirm'
import { FieldShell } from '../../../ui/FieldShell'
import { STEP_KEY, withNewStep, withoutStep, withStep, withStepKey, withStepMoved, withSteps, type FormEditing, type TextDesign } from './form-design'
import { formMessages } from './form-messages'
import { problemText, TextBox, TextPair, Warning } from './FormInputs'

/** A new step's or review's title, in both languages, as screen data. */
const stepTitle = (n: number): TextDesign => ({ es: messageIn(formMessages, 'steps.newTitle', { n }, 'es'), en: messageIn(formMessages, 'steps.newTitle', { n }, 'en') })
const reviewTitle = (): TextDesign => ({ es: messageIn(formMessages, 'steps.reviewDefault', undefined, 'es'), en: messageIn(formMessages, 'steps.reviewDefault', undefined, 'en') })

/** Steps on or off; each step's key, title and description, moved and removed; the review step. Fields are assigned to steps in the list of fields. */
export function StepsEditor({ editing }: { editing: FormEditing }) {
  const t = useMessages(formMessages)
  const { design, apply } = editing
  const id = `${editing.id}-steps`
  const steps = design.steps

  const toggle = async (on: boolean) => {
    if (!on && !(await confirm(t('steps.offConfirm')))) return
    apply(withSteps(design, on, stepTitle))
  }
  const rekey = (i: number, key: string) => {
    if (!STEP_KEY.test(key)) return t('steps.keyInvalid', { key })
    if (steps!.some((s, j) => j !== i && s.key === key)) return t('steps.keyDuplicate', { key })
    return apply(withStepKey(design, i, key))
  }
  const remove = async (i: number) => {
    if (await confirm(t('steps.removeConfirm', { step: steps![i]!.key }))) apply(withoutStep(design, i))
  }

  return (
    <fieldset className="screen-studio__group">
      <legend>{t('steps.title')}</legend>
      <FieldShell id={`${id}-on`} label={t('steps.on')} check>
        <Checkbox inputId={`${id}-on`} checked={!!steps} onChange={(e) => void toggle(!!e.checked)} />
      </FieldShell>
      {steps && (
        <ol className="form-editor__steps">
          {steps.map((s, i) => {
            const sid = `${id}-${i}`
            const problems = editing.problems.filter((p) => p.step === i)
            const fields = design.fields.filter((f) => f.step === s.key).map((f) => f.name)
            const nodes = s.origin?.nodes?.length ?? 0
            return (
              <li key={i} className="form-editor__step" aria-labelledby={`${sid}-heading`}>
                <div className="form-editor__step-head">
                  <span id={`${sid}-heading`} className="form-editor__heading">
                    {t('steps.step', { n: i + 1 })}
                  </span>
                  <span className="screen-studio__move">
                    <Button type="button" icon="pi pi-arrow-up" text rounded size="small" disabled={i === 0} onClick={() => apply(withStepMoved(design, i, -1))} aria-label={t('steps.up', { step: s.key })} />
                    <Button type="button" icon="pi pi-arrow-down" text rounded size="small" disabled={i === steps.length - 1} onClick={() => apply(withStepMoved(design, i, 1))} aria-label={t('steps.down', { step: s.key })} />
                    <Button type="button" icon="pi pi-trash" text rounded size="small" severity="danger" onClick={() => void remove(i)} aria-label={t('steps.remove', { step: s.key })} />
                  </span>
                </div>
                <div className="form-editor__pairs">
                  <TextBox id={`${sid}-key`} label={t('steps.key')} value={s.key} commit={(key) => rekey(i, key)} lazy required error={problemText(problems.filter((p) => p.place === 'stepKey'), t)} />
                  <TextPair id={`${sid}-title`} labels={[t('steps.titleEs'), t('steps.titleEn')]} value={s.title} commit={(title) => apply(withStep(design, i, { title }))} required />
                  <TextPair id={`${sid}-description`} labels={[t('steps.descriptionEs'), t('steps.descriptionEn')]} value={s.description} commit={(description) => apply(withStep(design, i, { description }))} />
                </div>
                <p className="screen-studio__help">{fields.length ? t('steps.fields', { list: fields.join(', ') }) : t('steps.noFields')}</p>
                {nodes > 0 && <p className="screen-studio__help">{t('steps.nodes', { n: nodes })}</p>}
                {problemText(problems.filter((p) => p.place === 'stepFields'), t) && (
                  <small className="p-error field-error" role="alert">
                    {problemText(problems.filter((p) => p.place === 'stepFields'), t)}
                  </small>
                )}
                <Warning>{problemText(problems, t, 'warning')}</Warning>
              </li>
            )
          })}
        </ol>
      )}
      {steps && (
        <>
          <Button type="button" icon="pi pi-plus" text size="small" label={t('steps.add')} onClick={() => apply(withNewStep(design, stepTitle))} />
          <FieldShell id={`${id}-review`} label={t('steps.review')} check>
            <Checkbox inputId={`${id}-review`} checked={!!design.review} onChange={(e) => apply({ ...design, review: e.checked ? (design.review ?? { title: reviewTitle(), origin: null }) : null })} />
          </FieldShell>
          {design.review && (
            <div className="form-editor__pairs">
              <TextPair id={`${id}-review-title`} labels={[t('steps.reviewTitleEs'), t('steps.reviewTitleEn')]} value={design.review.title} commit={(title) => apply({ ...design, review: { ...design.review!, title } })} required />
            </div>
          )}
        </>
      )}
    </fieldset>
  )
}
