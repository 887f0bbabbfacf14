/** The id of this client build (vite.config.ts). */
declare const __BUILD_ID__: string
