import fastifyCookie from '@fastify/cookie'
import underPressure from '@fastify/under-pressure'
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify'
import path from 'node:path'
import pino, { type DestinationStream } from 'pino'
import './lib/fastify-types'
import type { AuditLog } from './audit/audit-log'
import { approvalRoutes } from './approvals/approval-routes'
import { ApprovalService } from './approvals/approval-service'
import type { ApprovalStore } from './approvals/approval-store'
import { policyEditorRoutes } from './approvals/policy-editor-routes'
import { PolicyService } from './approvals/policy-service'
import type { NoticeStore } from './notices/notice-store'
import type { EventBus } from './events/event-bus'
import { EventHub } from './events/event-hub'
import { eventRoutes } from './events/event-routes'
import { liveChanges } from './events/live-changes'
import { LIVE_TIMINGS, type LiveTimings } from './events/live-timings'
import { PresenceAccess } from './events/presence-access'
import type { PresenceStore } from './events/presence-store'
import { RecordRules } from './events/record-rules'
import type { ImportStore } from './imports/import-store'
import { loadImports, SHIPPED_IMPORTS_DIR } from './imports/import-definitions'
import { importRoutes } from './imports/import-routes'
import { ImportService } from './imports/import-service'
import { noticeRoutes } from './notices/notice-routes'
import type { ViewStore } from './views/view-store'
import { viewRoutes } from './views/view-routes'
import { auditRoutes } from './audit/audit-routes'
import { revealRoutes } from './personal/reveal-routes'
import { AuditWriter } from './audit/audit-writer'
import { CallAudit } from './audit/call-audit'
import { brandRoutes } from './brand/brand-routes'
import { loadBrands } from './brand/brand-registry'
import type { Config } from './config'
import { draftRoutes } from './drafts/draft-routes'
import type { DraftStore } from './drafts/draft-store'
import { RecoveryThrottle, SignUpThrottle } from './security/recovery-throttle'
import { SignInThrottle } from './security/sign-in-throttle'
import { HttpError, MESSAGES, sendError } from './lib/errors'
import { JSON_BODY_MESSAGES, registerJsonBodyParser } from './lib/json-body'
import { REDACT_PATHS, maskUrl } from './lib/log-redaction'
import { typeboxValidatorCompiler } from './lib/typebox-validator'
import { deriveManifest, loadMenuFrame, SHIPPED_SCREENS_DIR } from './manifest/manifest-data'
import { adminMenuRoutes } from './manifest/admin-menu-routes'
import { manifestRoutes } from './manifest/manifest-routes'
import { MenuService } from './manifest/menu-service'
import type { MenuStore } from './manifest/menu-store'
import { acceptBurstsFirst } from './ops/accept-bursts'
import { lazyRequestLogger } from './ops/request-logger'
import { healthRoutes } from './ops/health-routes'
import { overloadOptions } from './ops/overload'
import type { Tracing } from './ops/tracing'
import { accessLogPlugin } from './plugins/access-log'
import { brandPlugin } from './plugins/brand'
import { compressionPlugin } from './plugins/compression'
import { csrfPlugin } from './plugins/csrf'
import { hostCheckPlugin } from './plugins/host-check'
import { BffMetrics, metricsPlugin } from './plugins/metrics'
import { newRequestId, requestIdPlugin } from './plugins/request-id'
import { canonicalUrl, requestTargetPlugin } from './plugins/request-target'
import { securityHeadersPlugin } from './plugins/security-headers'
import { checkScreen, loadScreens, SCREEN_MIGRATIONS, upgradeScreen, type ScreenMigration } from './screens/screen-loader'
import { adminScreenRoutes } from './screens/admin-screen-routes'
import { screenPreviewRoutes } from './screens/screen-preview-routes'
import { screenRoutes } from './screens/screen-routes'
import { searchRoutes } from './search/search-routes'
import { ScreenService } from './screens/screen-service'
import { ScreenStore } from './screens/screen-store'
import { apiProxy } from './proxy/api-proxy'
import { CallChecker } from './catalogue/call-check'
import { loadCatalogue } from './catalogue/catalogue-loader'
import { catalogueRoutes } from './catalogue/catalogue-routes'
import { UpstreamClient, UpstreamError } from './upstream/upstream-client'
import { adminSessionRoutes } from './session/admin-session-routes'
import { viewAsReadOnly, viewAsRoutes } from './session/view-as-routes'
import { AuthService } from './session/auth-service'
import { passwordRoutes } from './session/password-routes'
import { authRoutes } from './session/auth-routes'
import { signupRoutes } from './session/signup-routes'
import { CachedSessionStore } from './session/session-cache'
import { SessionGate } from './session/session-gate'
import type { SessionStore } from './session/session-store'
import { SCREEN_SCHEMA_VERSION } from '../schemas/screen'
import { openStores } from './stores'
import { clientAssets, readBuildId } from './web/client-assets'

export interface AppDeps {
  /** Replaces the embedded SQLite session store (tests, Redis). */
  sessionStore?: SessionStore
  /** Replaces the embedded SQLite menu store (tests, Redis). */
  menuStore?: MenuStore
  /** Replaces the embedded SQLite draft store (tests). */
  draftStore?: DraftStore
  /** Replaces the embedded SQLite audit log (tests, Redis). */
  auditLog?: AuditLog
  /** Replaces the embedded SQLite store of held requests (tests, Redis). */
  approvalStore?: ApprovalStore
  /** The clock of held requests (created, expired after 48 h); `now` by default. Tests move it alone, leaving sessions be. */
  approvalClock?: () => number
  /** Replaces the embedded SQLite notice store (tests, Redis). */
  noticeStore?: NoticeStore
  /** Replaces the in-process event bus (tests, Redis). */
  eventBus?: EventBus
  /** Replaces the in-memory presence store (tests, Redis). */
  presenceStore?: PresenceStore
  /** Heartbeat of the events stream (~20 s) and the presence expiry sweep (5 s); tests shorten them. */
  liveTimings?: Partial<LiveTimings>
  /** Replaces the embedded SQLite view store (tests, Redis). */
  viewStore?: ViewStore
  /** Replaces the embedded SQLite import store (tests, Redis). */
  importStore?: ImportStore
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream
  /** The clock used for token expiry decisions. */
  now?: () => number
  /** OpenTelemetry, started by main.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  tracing?: Tracing
  /** Replaces the shipped screens folder (tests adding a screen). */
  screensDir?: string
  /** Replaces the screen format's migrations and current version for stored screens (tests of a schema change). */
  screenSchema?: { migrations: Record<number, ScreenMigration>; version: number }
  /** Distinct users whose browser fails to render a published version before everyone falls back (3). */
  screenFailureThreshold?: number
}


const BODY_LIMIT = 1024 * 1024

/** Builds the BFF: everything but listening. Tests build it in-process with supertest. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  if (!config.upstreamUrl) throw new Error('buildApp necesita UPSTREAM_URL (main.ts arranca la API de referencia si falta).')

  const brands = loadBrands(config.brandsDir)
  const catalogue = loadCatalogue({ extraFiles: config.catalogueFiles })
  const shippedScreens = loadScreens(deps.screensDir ?? SHIPPED_SCREENS_DIR, catalogue)
  // One source per screen: its file declares its routes and menu place (manifest-data.ts).
  const menuFrame = loadMenuFrame()
  const brandKeys = new Set(brands.all.map((b) => b.key))
  const { routes, menu: defaultMenu } = deriveManifest(shippedScreens, menuFrame, brandKeys)
  const buildId = config.buildId ?? readBuildId(config.clientDist)

  // One destination for the main logger and the request-completed lines.
  const logDestination = deps.logStream ?? pino.destination({ dest: 1, sync: true })
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACT_PATHS, censor: '[oculto]' },
      serializers: {
        req: (req) => ({ method: req.method, url: maskUrl(req.url), host: req.host, remoteAddress: req.ip }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
      stream: logDestination,
    },
    // A client-sent id is not trusted: every request gets one of ours (plugins/request-id).
    genReqId: newRequestId,
    requestIdHeader: false,
    // One log line per request, written on response (plugins/access-log).
    logController: new LogController({ requestIdLogLabel: 'reqId', disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
    // Before routing: every decision below is taken on the canonical request target. A
    // constructor option, as a plugin's hooks run after routing; plugins/request-target refuses.
    rewriteUrl: canonicalUrl,
  })
  // Node 20 accepts one connection per turn: while many arrive at once, accept them first.
  const connectionBursts = acceptBurstsFirst(app.server, { maxPauseMs: config.acceptBurstMaxPauseMs })
  app.setValidatorCompiler(typeboxValidatorCompiler)
  // Before any plugin, so every BFF route inherits it (the /api proxy replaces it in its own scope).
  registerJsonBodyParser(app)
  // First, so its request span covers every hook and route.
  if (deps.tracing) await app.register(deps.tracing.plugin)

  const stores = await openStores(config, { sessions: deps.sessionStore, menus: deps.menuStore, drafts: deps.draftStore, audit: deps.auditLog, approvals: deps.approvalStore, notices: deps.noticeStore, events: deps.eventBus, presence: deps.presenceStore, views: deps.viewStore, imports: deps.importStore }, app.log)
  const { menus: menuStore, attempts } = stores
  const sessions =
    config.sessionCacheMs > 0
      ? new CachedSessionStore(stores.sessions, { ttlMs: config.sessionCacheMs, absoluteMs: config.sessionAbsoluteTimeoutMs, now: deps.now })
      : stores.sessions
  const metrics = new BffMetrics(sessions)
  metrics.countConnectionBursts(connectionBursts)
  const upstream = new UpstreamClient(config.upstreamUrl, config.upstreamTimeoutMs, metrics.observeUpstream, config.upstreamConnections)
  const auth = new AuthService(upstream, sessions, deps.now)
  const auditWriter = new AuditWriter(stores.audit, { logger: app.log, failed: metrics.auditWriteFailed }, deps.now)
  const checker = new CallChecker(catalogue)
  const gate = new SessionGate({ store: sessions, auth, production: config.production, absoluteTimeoutMs: config.sessionAbsoluteTimeoutMs })
  const menus = new MenuService(menuStore, auditWriter, defaultMenu)
  const screenSchema = deps.screenSchema ?? { migrations: SCREEN_MIGRATIONS, version: SCREEN_SCHEMA_VERSION }
  const screensDocs = path.join(deps.screensDir ?? SHIPPED_SCREENS_DIR, 'docs')
  const screens = new ScreenService({
    shipped: shippedScreens,
    store: new ScreenStore(menuStore, auditWriter),
    shippedView: { routes, menu: defaultMenu },
    frame: menuFrame,
    brands: brandKeys,
    // A studio screen passes every check a shipped one does, catalogued calls included.
    check: (raw, where, routesOf) => checkScreen(raw, where, { routesOf, catalogue, docsDir: screensDocs, migrations: screenSchema.migrations, schemaVersion: screenSchema.version }),
    upgrade: (raw, where) => upgradeScreen(raw, where, screenSchema.migrations, screenSchema.version),
    failureThreshold: deps.screenFailureThreshold ?? config.screenFailureThreshold,
    log: app.log,
    now: deps.now,
  })
  const throttle = new SignInThrottle(attempts, config.signInThrottle)
  // Same limits as sign-in, counted apart (every request counts there).
  const recoveryThrottle = new RecoveryThrottle(attempts, config.signInThrottle)

  app.decorateRequest('sessionMemo', undefined)
  app.decorateRequest('actorSession', undefined)

  // The cross-cutting plugins (server/plugins/), unencapsulated so their hooks reach every
  // route, registered in the order their hooks run: the order is security-relevant, and each
  // plugin says why it sits where it does (their `dependencies` make Fastify check it).
  await app.register(securityHeadersPlugin, { production: config.production })
  await app.register(requestTargetPlugin)
  await app.register(hostCheckPlugin, { production: config.production, brands, allowedHosts: config.allowedHosts })
  await app.register(brandPlugin, { brands })
  await app.register(requestIdPlugin)
  await app.register(csrfPlugin)
  await app.register(accessLogPlugin, { level: config.logLevel, destination: logDestination })

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err.validation) return sendError(reply, 400, `${MESSAGES.invalidBody.replace(/\.$/, '')}: ${err.message}.`)
    if (err instanceof UpstreamError) {
      request.log.warn({ event: 'upstream_error', status: err.statusCode }, err.message)
      return sendError(reply, err.statusCode, err.message)
    }
    if (err instanceof HttpError) return sendError(reply, err.statusCode, err.message)
    const status = err.statusCode ?? 500
    if (status === 413) return sendError(reply, 413, 'La petición es demasiado grande.')
    if (status === 415) return sendError(reply, 415, 'Tipo de contenido no admitido.')
    // Fastify's own JSON parser, should a scope still use it: the same Spanish answers as ours.
    if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return sendError(reply, 400, JSON_BODY_MESSAGES.empty)
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return sendError(reply, 400, JSON_BODY_MESSAGES.invalid)
    if (status >= 400 && status < 500) return sendError(reply, status, 'Petición no válida.')
    request.log.error({ err }, 'unhandled error')
    return sendError(reply, 500, MESSAGES.internal)
  })

  await app.register(underPressure, overloadOptions(config.overload, app.log))
  await app.register(metricsPlugin, { metrics, access: { token: config.metricsToken, production: config.production } })
  await app.register(compressionPlugin)
  await app.register(fastifyCookie)
  // After the cookies are parsed, before any route: view-as changes nothing.
  app.addHook('onRequest', viewAsReadOnly(gate))
  await app.register(healthRoutes, { upstream, sessions, menus: menuStore })
  await app.register(brandRoutes, { brands })
  await app.register(authRoutes, { gate, auth, store: sessions, throttle })
  await app.register(passwordRoutes, { gate, store: sessions, upstream, recoveryThrottle, catalogue })
  await app.register(adminSessionRoutes, { gate, store: sessions, audit: auditWriter })
  await app.register(viewAsRoutes, { gate, auth, store: sessions, audit: auditWriter })
  await app.register(draftRoutes, { gate, store: stores.drafts })
  await app.register(manifestRoutes, {
    gate,
    menus,
    screens,
    shippedMenu: defaultMenu,
    routes,
    production: config.production,
    comparadorUrl: config.comparadorUrl,
    buildId: () => buildId,
    signup: config.signupEnabled,
  })
  await app.register(screenRoutes, {
    gate,
    screens,
    menus,
    production: config.production,
    comparadorUrl: config.comparadorUrl,
  })
  await app.register(adminMenuRoutes, {
    gate,
    menus,
    store: menuStore,
    routes,
    brands,
    upstream,
    comparadorUrl: config.comparadorUrl,
  })
  await app.register(adminScreenRoutes, { gate, screens, routes })
  await app.register(screenPreviewRoutes, { gate, screens, menus, upstream, production: config.production, comparadorUrl: config.comparadorUrl })
  await app.register(catalogueRoutes, { gate, catalogue })
  await app.register(searchRoutes, { gate, screens, menus, catalogue, checker, upstream, production: config.production, comparadorUrl: config.comparadorUrl })
  await app.register(auditRoutes, { gate, log: stores.audit, brands, catalogue, checker, upstream })
  await app.register(revealRoutes, { gate, catalogue, checker, upstream, audit: auditWriter })
  const callAudit = new CallAudit({ writer: auditWriter, upstream, catalogue, now: deps.now })
  const live = { ...LIVE_TIMINGS, ...deps.liveTimings }
  const recordRules = new RecordRules(catalogue)
  const hub = new EventHub({ bus: stores.events, presence: stores.presence, log: app.log, maxPerUser: live.maxStreamsPerUser, presenceTtlMs: live.presenceTtlMs, sweepMs: live.sweepMs })
  // Open streams never end on their own: ended before the server waits for its connections.
  app.addHook('preClose', async () => hub.close())
  await app.register(eventRoutes, { gate, sessions, hub, rules: recordRules, access: new PresenceAccess(upstream, recordRules), heartbeatMs: live.heartbeatMs })
  const changes = liveChanges(recordRules, hub)
  const policies = new PolicyService(menuStore, auditWriter, catalogue, deps.now)
  const approvals = new ApprovalService({ store: stores.approvals, policies, upstream, catalogue, audit: auditWriter, notices: stores.notices, cipher: stores.cipher, changes, retentionMs: config.approvalRetentionMs, now: deps.approvalClock ?? deps.now, log: app.log })
  await app.register(approvalRoutes, { gate, approvals, policies })
  await app.register(policyEditorRoutes, { gate, policies })
  // Off, the path does not exist (404): nothing to probe.
  if (config.signupEnabled) await app.register(signupRoutes, { upstream, throttle: new SignUpThrottle(attempts, config.signInThrottle), approvals, catalogue })
  await app.register(noticeRoutes, { gate, store: stores.notices })
  await app.register(viewRoutes, { gate, store: stores.views, screens, audit: auditWriter, catalogue, now: deps.now })
  // Bulk imports: definitions checked against the catalogue and the shipped screens at start.
  const imports = new ImportService({ store: stores.imports, cipher: stores.cipher, imports: loadImports(SHIPPED_IMPORTS_DIR, catalogue, shippedScreens), catalogue, log: app.log })
  await app.register(importRoutes, { gate, service: imports, root: app })
  await app.register(apiProxy, { upstream, gate, checker, bodyLimit: config.apiBodyLimitBytes, audit: callAudit, approvals, auditWriter, changes })
  await app.register(clientAssets, { clientDist: config.clientDist, production: config.production })

  app.addHook('onClose', async () => {
    menus.close()
    screens.close()
    await attempts.close()
    await sessions.close()
    await menuStore.close()
    await stores.drafts.close()
    await stores.audit.close()
    approvals.close()
    policies.close()
    await stores.approvals.close()
    await stores.notices.close()
    await stores.events.close()
    await stores.presence.close()
    await stores.views.close()
    await stores.imports.close()
    await upstream.close().catch(() => undefined)
  })
  return app
}
