import { useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Menu } from 'primereact/menu'
import type { MenuItem } from 'primereact/menuitem'
import { Skeleton } from 'primereact/skeleton'
import { memo, useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { GridLayout, useContainerWidth, type Layout, type LayoutItem } from 'react-grid-layout'
import { defaultConstraints, transformStrategy } from 'react-grid-layout/core'
import 'react-grid-layout/css/styles.css'
import { api } from '../../api/client'
import { reportError } from '../../api/errors'
import { PREFERENCES_KEY, usePreference, type Preference } from '../../api/preferences'
import { notifySuccess } from '../../api/toast'
import { useLoadedManifest } from '../../api/manifest'
import { confirm } from '../../ui/confirm'
import { preloadCharts } from '../shared/lazy-charts'
import { EmptyState } from '../../ui/states'
import { messageIn, useI18n, useMessages } from '../../i18n/i18n'
import { allowedWidgets, DEFAULT_LAYOUTS, defaultState, keepAllowed, limitsOf, widgetDef, widgetTitle, type WidgetDef, type WidgetId } from './catalog'
import {
  AUTO_SIZE,
  BREAKPOINT_NAMES,
  breakpointForWidth,
  buildPreference,
  COLS,
  DRAG_CANCEL,
  DRAG_HANDLE,
  DRAG_THRESHOLD,
  freeSpaceResize,
  gridCompactor,
  MARGIN,
  MAX_ROWS,
  mergeLayouts,
  moveItemBy,
  parsePreference,
  PREFERENCE_KEY,
  PREVENT_COLLISION,
  RESIZE_HANDLES,
  resizeItemBy,
  resolveLayout,
  ROW_HEIGHT,
  samePlacements,
  setBreakpointLayout,
  toPlacements,
  VISIBILITY_MARGIN_PX,
  VISIBILITY_THRESHOLD,
  type Breakpoint,
  type StoredLayouts,
} from './grid-rules'
import { ContractsByStatePanel } from './panels/ContractsByStatePanel'
import { ContractsPerMonthPanel } from './panels/ContractsPerMonthPanel'
import { OmiePanel } from './panels/OmiePanel'
import { RenewalsPanel } from './panels/RenewalsPanel'
import { SummaryPanel } from './panels/SummaryPanel'
import { messages } from './messages'
import './dashboard.css'

/** Saves wait this long after the last drag or resize ends (never on every move). */
export const SAVE_DEBOUNCE_MS = 700

const COMPACTOR = gridCompactor()
const DRAG_CONFIG = { enabled: true, handle: DRAG_HANDLE, cancel: DRAG_CANCEL, threshold: DRAG_THRESHOLD }
const RESIZE_CONFIG = { enabled: true, handles: RESIZE_HANDLES }
const CONSTRAINTS = PREVENT_COLLISION ? [...defaultConstraints, freeSpaceResize] : defaultConstraints

interface DashboardState {
  widgets: WidgetId[]
  /** Only the breakpoints the user arranged; the others use their default layout. */
  stored: StoredLayouts
}

/**
 * The home dashboard: a react-grid-layout grid of live widgets that the user adds, removes,
 * moves and resizes. Layouts are kept per breakpoint in the preference `dashboard:layouts`, so
 * they follow the user to any machine. The preference is loaded before the grid is first painted.
 */
export default function Dashboard() {
  const manifest = useLoadedManifest()
  const permissions = manifest.user?.permissions ?? []
  // The permissions as one string: a manifest re-read with the same permissions keeps the same widgets.
  const permissionList = permissions.join(',')
  const allowed = useMemo(() => allowedWidgets(permissionList ? permissionList.split(',') : []), [permissionList])
  const pref = usePreference<unknown>(PREFERENCE_KEY)
  // The charts' library downloads while the preference and the panels' data are on their way.
  useEffect(preloadCharts, [])

  // Init step: nothing is painted until the preference query has settled (no jump from default to saved).
  if (pref.loading) return <DashboardSkeleton />
  const parsed = parsePreference(pref.value)
  const initial: DashboardState = parsed
    ? { widgets: parsed.widgets ? keepAllowed(parsed.widgets, allowed) : defaultState(allowed).widgets, stored: parsed.layouts }
    : defaultState(allowed)
  return <DashboardGrid initial={initial} allowed={allowed} userId={manifest.user?.id} canSeeRenewals={permissions.includes('VERRENOVACIONES')} />
}

function DashboardSkeleton() {
  const t = useMessages(messages)
  return (
    <div className="dash" aria-busy="true" aria-label={t('loading')}>
      <div className="dash-toolbar">
        <Skeleton width="9rem" height="2.5rem" />
        <Skeleton width="9rem" height="2.5rem" />
      </div>
      <div className="dash-skeleton">
        <Skeleton height="150px" className="dash-skeleton__wide" />
        <Skeleton height="310px" />
        <Skeleton height="310px" />
      </div>
    </div>
  )
}

function DashboardGrid({ initial, allowed, userId, canSeeRenewals }: { initial: DashboardState; allowed: WidgetDef[]; userId: number | undefined; canSeeRenewals: boolean }) {
  const client = useQueryClient()
  const t = useMessages(messages)
  const { lang } = useI18n()
  const pref = usePreference<unknown>(PREFERENCE_KEY)
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true })
  const bp = breakpointForWidth(width)
  const [state, setState] = useState<DashboardState>(initial)
  const [interacting, setInteracting] = useState(false)
  // react-grid-layout 2.3 memoises its items on their props and children: a dragged item whose grid
  // position does not change would not follow the pointer. Fresh children on each move event keep it
  // moving (the cards' content is memoised, so only the wrappers re-render).
  const [moveTick, setMoveTick] = useState(0)
  const addMenu = useRef<Menu>(null)
  const [focusCard, setFocusCard] = useState<string | null>(null)

  // The shown breakpoint's full layout: the stored one (or the default), normalised by the grid rules.
  const current = useMemo(() => resolveLayout(state.widgets, state.stored[bp], DEFAULT_LAYOUTS[bp], limitsOf, COLS[bp]), [state, bp])

  // ── Saving: debounced, after a drag or resize ends; merged with what is stored upstream ──
  const prefRef = useRef(pref)
  prefRef.current = pref
  const stateRef = useRef(state)
  stateRef.current = state
  const dirty = useRef(new Set<Breakpoint>())
  const timer = useRef<number | undefined>(undefined)
  const chain = useRef<Promise<void>>(Promise.resolve())

  const readStored = useCallback(async (): Promise<Preference | undefined> => {
    await client.refetchQueries({ queryKey: PREFERENCES_KEY })
    for (const [, list] of client.getQueriesData<Preference[]>({ queryKey: PREFERENCES_KEY })) {
      const found = list?.find((p) => p.Clave === PREFERENCE_KEY)
      if (found) return found
    }
    return undefined
  }, [client])

  const flush = useCallback(() => {
    window.clearTimeout(timer.current)
    timer.current = undefined
    chain.current = chain.current.then(async () => {
      const changed = [...dirty.current]
      dirty.current.clear()
      const { widgets, stored } = stateRef.current
      try {
        const upstream = parsePreference((await readStored())?.Valor)
        await prefRef.current.save(buildPreference(widgets, mergeLayouts(upstream?.layouts, stored, changed)))
      } catch (err) {
        reportError(messageIn(messages, 'area'), err, messageIn(messages, 'save.error'))
      }
    })
  }, [readStored])

  const scheduleSave = useCallback(() => {
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(flush, SAVE_DEBOUNCE_MS)
  }, [flush])

  // Leaving the page with a save pending: send it now.
  useEffect(() => {
    const onHide = () => timer.current !== undefined && flush()
    window.addEventListener('pagehide', onHide)
    return () => {
      window.removeEventListener('pagehide', onHide)
      onHide()
    }
  }, [flush])

  const shown = useRef({ bp, layout: current })
  shown.current = { bp, layout: current }

  /** A new layout for the current breakpoint (end of a drag or resize, or a keyboard step). */
  const commit = useCallback(
    (layout: Layout) => {
      const b = shown.current.bp
      if (samePlacements(toPlacements(layout), toPlacements(shown.current.layout))) return
      setState((s) => ({ ...s, stored: setBreakpointLayout(s.stored, b, layout) }))
      dirty.current.add(b)
      scheduleSave()
    },
    [scheduleSave],
  )

  const addWidget = useCallback(
    (id: WidgetId) => {
      setState((s) => (s.widgets.includes(id) ? s : { ...s, widgets: [...s.widgets, id] }))
      setFocusCard(id)
      scheduleSave()
    },
    [scheduleSave],
  )

  const removeWidget = useCallback(
    (id: string) => {
      setState((s) => {
        const stored: StoredLayouts = {}
        for (const b of BREAKPOINT_NAMES) {
          const list = s.stored[b]
          if (list) stored[b] = list.filter((p) => p.i !== id)
        }
        return { widgets: s.widgets.filter((w) => w !== id), stored }
      })
      scheduleSave()
      requestAnimationFrame(() => document.getElementById('dash-add')?.focus())
    },
    [scheduleSave],
  )

  const arrange = useCallback(
    (id: string, action: ArrangeAction) => {
      const { bp: b, layout } = shown.current
      const [dx, dy, dw, dh] = ARRANGE_STEPS[action]
      const next = dw || dh ? resizeItemBy(layout, id, dw, dh, COLS[b], COMPACTOR) : moveItemBy(layout, id, dx, dy, COLS[b], COMPACTOR)
      commit(next)
    },
    [commit],
  )

  const restore = useCallback(async () => {
    const ok = await confirm(messageIn(messages, 'reset.confirm'), messageIn(messages, 'reset.title'))
    if (!ok) return
    window.clearTimeout(timer.current)
    timer.current = undefined
    dirty.current.clear()
    setState(defaultState(allowed))
    chain.current = chain.current.then(async () => {
      try {
        const stored = await readStored()
        if (stored) {
          await api.delete('/api/usuarios/preference', undefined, { params: { loggedUserId: userId, preferenciaId: stored.Id } })
          await client.invalidateQueries({ queryKey: PREFERENCES_KEY })
        }
        notifySuccess(messageIn(messages, 'area'), messageIn(messages, 'reset.done'))
      } catch (err) {
        reportError(messageIn(messages, 'area'), err)
      }
    })
  }, [allowed, client, readStored, userId])

  // After adding a widget, the keyboard focus goes to its card.
  // oxlint-disable-next-line react-hooks/exhaustive-deps -- runs after every render until the new card is in the page (the grid may mount it a render later); it clears `focusCard` once done
  useEffect(() => {
    if (!focusCard) return
    const el = document.querySelector<HTMLElement>(`[data-widget="${focusCard}"]`)
    if (el) {
      el.focus()
      el.scrollIntoView({ block: 'nearest' })
      setFocusCard(null)
    }
  })

  const available = allowed.filter((w) => !state.widgets.includes(w.id))
  const addItems: MenuItem[] = available.length
    ? available.map((w) => ({ label: widgetTitle(w.id, lang), command: () => addWidget(w.id) }))
    : [{ label: t('add.none'), disabled: true }]

  const gridConfig = useMemo(() => ({ cols: COLS[bp], rowHeight: ROW_HEIGHT, margin: MARGIN, maxRows: MAX_ROWS }), [bp])
  // A window resized across a breakpoint mid-drag mounts a new grid, which never reports that drag's end.
  useEffect(() => setInteracting(false), [bp])
  const children = useMemo(
    () =>
      state.widgets.map((id) => {
        const item = current.find((l) => l.i === id)
        return (
          <section key={id} className="dash-card" data-widget={id} aria-labelledby={`dash-title-${id}`} tabIndex={-1}>
            <CardContent id={id} title={widgetDef(id) ? widgetTitle(id, lang) : id} item={item} cols={COLS[bp]} canSeeRenewals={canSeeRenewals} onRemove={removeWidget} onArrange={arrange} />
          </section>
        )
      }),
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- `moveTick` redraws the cards after a keyboard move; titles follow `lang`
    [state.widgets, current, bp, canSeeRenewals, removeWidget, arrange, moveTick, lang],
  )

  const onStart = useCallback(() => setInteracting(true), [])
  const onMove = useCallback(() => setMoveTick((t) => t + 1), [])
  const onStop = useCallback(
    (layout: Layout) => {
      setInteracting(false)
      commit(layout)
    },
    [commit],
  )

  return (
    <div className="dash">
      <div className="dash-toolbar" role="group" aria-label={t('toolbar')}>
        <Menu model={addItems} popup ref={addMenu} id="dash-add-menu" className="dash-menu" />
        <Button
          id="dash-add"
          type="button"
          icon="pi pi-plus"
          label={t('add')}
          outlined
          aria-haspopup="menu"
          onClick={(e) => addMenu.current?.toggle(e)}
        />
        <Button type="button" icon="pi pi-replay" label={t('reset')} text onClick={() => void restore()} />
        <span className="dash-toolbar__hint">{t('hint')}</span>
      </div>
      <div ref={containerRef} className={`dash-grid${interacting ? ' dash-grid--interacting' : ''}`} data-breakpoint={bp}>
        {mounted && state.widgets.length === 0 && <EmptyState className="dash-empty">{t('empty')}</EmptyState>}
        {mounted && (
          // One grid per breakpoint (keyed), fed the layout resolved above for the width we measured.
          // react-grid-layout's Responsive keeps a breakpoint of its own, updated an effect later than
          // the width: in between it rendered the new width with the old columns and stored that
          // mixed layout under the old breakpoint (cards narrower than the grid and overlapping after
          // a window went from wide to narrow). With one source of truth that state cannot exist.
          <GridLayout
            key={bp}
            width={width}
            gridConfig={gridConfig}
            layout={current}
            compactor={COMPACTOR}
            constraints={CONSTRAINTS}
            positionStrategy={transformStrategy}
            autoSize={AUTO_SIZE}
            dragConfig={DRAG_CONFIG}
            resizeConfig={RESIZE_CONFIG}
            onDragStart={onStart}
            onResizeStart={onStart}
            onDrag={onMove}
            onResize={onMove}
            onDragStop={onStop}
            onResizeStop={onStop}
          >
            {children}
          </GridLayout>
        )}
      </div>
    </div>
  )
}

type ArrangeAction = 'left' | 'right' | 'up' | 'down' | 'wider' | 'narrower' | 'taller' | 'shorter'
/** [dx, dy, dw, dh] of each keyboard step. */
const ARRANGE_STEPS: Record<ArrangeAction, [number, number, number, number]> = {
  left: [-1, 0, 0, 0],
  right: [1, 0, 0, 0],
  up: [0, -1, 0, 0],
  down: [0, 1, 0, 0],
  wider: [0, 0, 1, 0],
  narrower: [0, 0, -1, 0],
  taller: [0, 0, 0, 1],
  shorter: [0, 0, 0, -1],
}

const CardContent = memo(function CardContent({
  id,
  title,
  item,
  cols,
  canSeeRenewals,
  onRemove,
  onArrange,
}: {
  id: WidgetId
  title: string
  item: LayoutItem | undefined
  cols: number
  canSeeRenewals: boolean
  onRemove: (id: string) => void
  onArrange: (id: string, action: ArrangeAction) => void
}) {
  const menu = useRef<Menu>(null)
  const t = useMessages(messages)
  const limits = limitsOf(id)
  const body = useRef<HTMLDivElement>(null)
  const seen = useSeen(body)
  const step = (action: ArrangeAction) => () => {
    onArrange(id, action)
    requestAnimationFrame(() => document.getElementById(`dash-arrange-btn-${id}`)?.focus())
  }
  const w = item?.w ?? 1
  const h = item?.h ?? 1
  const x = item?.x ?? 0
  const model: MenuItem[] = [
    { label: t('arrange.left'), icon: 'pi pi-arrow-left', disabled: x <= 0, command: step('left') },
    { label: t('arrange.right'), icon: 'pi pi-arrow-right', disabled: x + w >= cols, command: step('right') },
    { label: t('arrange.up'), icon: 'pi pi-arrow-up', command: step('up') },
    { label: t('arrange.down'), icon: 'pi pi-arrow-down', command: step('down') },
    { separator: true },
    { label: t('arrange.wider'), icon: 'pi pi-arrows-h', disabled: x + w >= cols || w >= (limits.maxW ?? Infinity), command: step('wider') },
    { label: t('arrange.narrower'), icon: 'pi pi-arrows-h', disabled: w <= (limits.minW ?? 1), command: step('narrower') },
    { label: t('arrange.taller'), icon: 'pi pi-arrows-v', disabled: h >= (limits.maxH ?? Infinity), command: step('taller') },
    { label: t('arrange.shorter'), icon: 'pi pi-arrows-v', disabled: h <= (limits.minH ?? 1), command: step('shorter') },
  ]
  return (
    <>
      <header className="dash-card__header" title={t('card.drag')}>
        <i className="pi pi-bars dash-card__grip" aria-hidden="true" />
        <h2 id={`dash-title-${id}`} className="dash-card__title">
          {title}
        </h2>
        <Menu model={model} popup ref={menu} id={`dash-arrange-${id}`} className="dash-menu" />
        <Button
          id={`dash-arrange-btn-${id}`}
          type="button"
          icon="pi pi-arrows-alt"
          rounded
          text
          size="small"
          className="dash-card__action"
          aria-label={t('card.arrange', { title })}
          aria-haspopup="menu"
          onClick={(e) => menu.current?.toggle(e)}
        />
        <Button type="button" icon="pi pi-times" rounded text size="small" className="dash-card__action" aria-label={t('card.remove', { title })} onClick={() => onRemove(id)} />
      </header>
      <div className="dash-card__body" ref={body}>
        {seen ? <WidgetBody id={id} canSeeRenewals={canSeeRenewals} /> : <div className="dash-panel-loading" aria-hidden="true" />}
      </div>
    </>
  )
})

function WidgetBody({ id, canSeeRenewals }: { id: WidgetId; canSeeRenewals: boolean }) {
  switch (id) {
    case 'resumen':
      return <SummaryPanel canSeeRenewals={canSeeRenewals} />
    case 'altas-mes':
      return <ContractsPerMonthPanel />
    case 'situacion':
      return <ContractsByStatePanel />
    case 'omie':
      return <OmiePanel />
    case 'renovaciones':
      return canSeeRenewals ? <RenewalsPanel /> : null
  }
}

/**
 * Whether the element has been on screen (spec §9 visibility observer: 8 px margin, 40 %
 * threshold): a widget fetches its data only once its card has been seen, and keeps it after.
 */
function useSeen(ref: RefObject<HTMLElement | null>): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined')
  useEffect(() => {
    const el = ref.current
    if (seen || !el) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setSeen(true)
          observer.disconnect()
        }
      },
      { rootMargin: `${VISIBILITY_MARGIN_PX}px`, threshold: VISIBILITY_THRESHOLD },
    )
    observer.observe(el)
    return () => observer.disconnect()
  }, [ref, seen])
  return seen
}
