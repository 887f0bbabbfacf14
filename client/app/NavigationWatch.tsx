import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { setUnauthenticatedHandler } from '../api/client'
import { MANIFEST_KEY, reloadManifest } from '../api/manifest'
import { isOutdated, reloadTo } from './build-check'

/**
 * Watches navigation: after a new build, the next navigation is a full reload to its target
 * (spec §8); a 401 from any call re-reads the manifest so the guards send the user to sign in.
 */
export function NavigationWatch() {
  const location = useLocation()
  const navigate = useNavigate()
  const client = useQueryClient()
  const first = useRef(true)

  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    if (isOutdated()) {
      reloadTo(`${location.pathname}${location.search}${location.hash}`)
      return
    }
    // A stale manifest (menu changed by an admin, permissions changed) is re-read on navigation.
    void client.refetchQueries({ queryKey: MANIFEST_KEY, stale: true })
  }, [location.pathname, location.search, location.hash, client])

  useEffect(() => {
    setUnauthenticatedHandler(() => {
      void reloadManifest(client)
    })
    return () => setUnauthenticatedHandler(() => undefined)
  }, [client, navigate])

  return null
}
