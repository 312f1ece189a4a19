import { defineMessages } from 'react-intl'
import { useI18n } from '../../lib/i18n'
import { useState } from 'react'
import type { ReactNode } from 'react'
import { Check, DateField, Field, Options, SearchField, TargetOptions } from '../../components/Field'
import { SOURCE_LABELS, STATUS_LABELS, UPLOAD_SOURCE_LIST, UPLOAD_STATUS_LIST } from '../../lib/labels'
import { useThrottled } from '../../lib/useThrottled'
import type { AiTarget, UploadSource } from '../../lib/types'
import { useApp } from '../../store'
import { useShallow } from 'zustand/react/shallow'
import messages from './Filters.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

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
  const intl = useI18n()

  const toggleStatus = (st: (typeof UPLOAD_STATUS_LIST)[number]) =>
    setFilter({
      statuses: filter.statuses.includes(st)
        ? filter.statuses.filter((x) => x !== st)
        : [...filter.statuses, st],
    })

  return (
    <div className="filters" role="search" aria-label={intl.formatMessage(m.filters)}>
      <SearchField
        label={intl.formatMessage(m.search)}
        className="filters__search"
        sayShortcut
        placeholder={intl.formatMessage(m.searchPlaceholder)}
        value={search}
        onChange={(text) => {
          setSearch(text)
          searchFor(text)
        }}
      />
      <FilterSelect<AiTarget>
        label={intl.formatMessage(m.target)}
        value={filter.target}
        all={intl.formatMessage(m.allTargets)}
        onChange={(target) => setFilter({ target })}
      >
        <TargetOptions />
      </FilterSelect>
      <FilterSelect<UploadSource>
        label={intl.formatMessage(m.source)}
        value={filter.source}
        all={intl.formatMessage(m.allSources)}
        onChange={(source) => setFilter({ source })}
      >
        <Options values={UPLOAD_SOURCE_LIST} label={(src) => SOURCE_LABELS[src]} />
      </FilterSelect>
      <DateField
        label={intl.formatMessage(m.from)}
        value={filter.from}
        max={filter.to}
        onChange={(from) => setFilter({ from })}
      />
      <DateField
        label={intl.formatMessage(m.to)}
        value={filter.to}
        min={filter.from}
        onChange={(to) => setFilter({ to })}
      />
      <Check
        label={intl.formatMessage(m.allProfiles)}
        checked={filter.allProfiles}
        onChange={(c) => setFilter({ allProfiles: c })}
      />
      <fieldset className="filters__statuses">
        <legend className="field__label">{intl.formatMessage(m.status)}</legend>
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
            {intl.formatMessage(m.anyStatus)}
          </button>
        ) : null}
      </fieldset>
    </div>
  )
}
