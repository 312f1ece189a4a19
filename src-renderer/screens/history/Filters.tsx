import { useState } from 'react'
import type { ReactNode } from 'react'
import { Check, DateField, Field, Options, SearchField, TargetOptions } from '../../components/Field'
import { SOURCE_LABELS, STATUS_LABELS, UPLOAD_SOURCE_LIST, UPLOAD_STATUS_LIST } from '../../lib/labels'
import { useThrottled } from '../../lib/useThrottled'
import type { AiTarget, UploadSource } from '../../lib/types'
import { useApp } from '../../store'
import { useShallow } from 'zustand/react/shallow'

/** A filter's list: "All …" (the empty value) and its values. */
function FilterSelect<V extends string>({
  label,
  value,
  all,
  onChange,
  children,
}: {
  label: string
  value: V | ''
  all: string
  onChange: (value: V | '') => void
  children: ReactNode
}) {
  return (
    <Field label={label}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.target.value as V | '')}>
          <option value="">{all}</option>
          {children}
        </select>
      )}
    </Field>
  )
}

/** The history's filters: file name search, target, source, dates, all profiles and statuses. */
export function HistoryFilters() {
  const [filter, setFilter] = useApp(useShallow((s) => [s.historyFilter, s.setHistoryFilter] as const))
  const [search, setSearch] = useState(filter.search)
  // A keystroke is searched at once; a burst of them makes one query per 80 ms, the last with the
  // final text. Late answers to an earlier query are dropped by generation.
  const searchFor = useThrottled((v: string) => setFilter({ search: v }), 80)

  const toggleStatus = (st: (typeof UPLOAD_STATUS_LIST)[number]) =>
    setFilter({
      statuses: filter.statuses.includes(st)
        ? filter.statuses.filter((x) => x !== st)
        : [...filter.statuses, st],
    })

  return (
    <div className="filters" role="search" aria-label="Filter the upload history">
      <SearchField
        label="Search file names"
        className="filters__search"
        sayShortcut
        placeholder="Search… ( / )"
        value={search}
        onChange={(text) => {
          setSearch(text)
          searchFor(text)
        }}
      />
      <FilterSelect<AiTarget>
        label="Target"
        value={filter.target}
        all="All targets"
        onChange={(target) => setFilter({ target })}
      >
        <TargetOptions />
      </FilterSelect>
      <FilterSelect<UploadSource>
        label="Source"
        value={filter.source}
        all="All sources"
        onChange={(source) => setFilter({ source })}
      >
        <Options values={UPLOAD_SOURCE_LIST} label={(src) => SOURCE_LABELS[src]} />
      </FilterSelect>
      <DateField label="From" value={filter.from} max={filter.to} onChange={(from) => setFilter({ from })} />
      <DateField label="To" value={filter.to} min={filter.from} onChange={(to) => setFilter({ to })} />
      <Check
        label="All profiles"
        checked={filter.allProfiles}
        onChange={(c) => setFilter({ allProfiles: c })}
      />
      <fieldset className="filters__statuses">
        <legend className="field__label">Status</legend>
        {UPLOAD_STATUS_LIST.map((st) => (
          <button
            key={st}
            type="button"
            className="chip"
            aria-pressed={filter.statuses.includes(st)}
            onClick={() => toggleStatus(st)}
          >
            {STATUS_LABELS[st]}
          </button>
        ))}
        {filter.statuses.length ? (
          <button type="button" className="linklike small" onClick={() => setFilter({ statuses: [] })}>
            Any status
          </button>
        ) : null}
      </fieldset>
    </div>
  )
}
