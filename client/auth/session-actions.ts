import type { QueryClient } from '@tanstack/react-query'
import type { SessionResponse } from '../../schemas/auth'
import { api } from '../api/client'
import { MANIFEST_KEY, fetchManifest, reloadManifest } from '../api/manifest'

export async function signIn(client: QueryClient, username: string, password: string): Promise<void> {
  await api.post<SessionResponse>('/bff/auth/login', { username, password })
  await reloadManifest(client)
}

/** Ends the session here and upstream, then forgets every cached answer of the signed-in user. */
export async function signOut(client: QueryClient): Promise<void> {
  try {
    await api.post('/bff/auth/logout')
  } finally {
    client.clear()
    await client.fetchQuery({ queryKey: MANIFEST_KEY, queryFn: fetchManifest })
  }
}

/** Re-checks the session (the user's permissions may have changed); the manifest follows. */
export async function recheckSession(client: QueryClient): Promise<void> {
  try {
    await api.get<SessionResponse>('/bff/auth/session')
  } catch {
    // 401: the session ended; the manifest reload below turns the app to signed-out.
  }
  await reloadManifest(client)
}
