import { useEffect } from 'react'
import { useApp } from '../store'
import type { ListKey } from '../store/records'

/** A server-paged list of the store (lists[key]), loaded the first time a screen shows it. */
export function useRecordList(key: ListKey) {
  const list = useApp((s) => s.lists[key])
  const load = useApp((s) => s.loadList)
  useEffect(() => {
    if (!useApp.getState().lists[key].loaded) void load(key)
  }, [key, load])
  return { list, load }
}
