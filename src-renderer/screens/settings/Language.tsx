import { defineMessages } from 'react-intl'
import { LANGUAGES, type LanguageChoice, isLanguage } from '../../../contract/i18n/languages'
import { Field } from '../../components/Field'
import { useI18n } from '../../lib/i18n'
import messages from './Language.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/**
 * The Language setting (issue 34): "System", then each language by its own name. Choosing one
 * switches every string at once (App's useLanguage) and is saved with the other settings.
 */
export function LanguageSetting({ value, onChange }: { value: LanguageChoice; onChange: (v: LanguageChoice) => void }) {
  const intl = useI18n()
  return (
    <Field label={intl.formatMessage(m.label)} hint={intl.formatMessage(m.hint)}>
      {(p) => (
        <select
          {...p}
          value={value}
          onChange={(e) => {
            const v = e.target.value
            if (v === 'system' || isLanguage(v)) onChange(v)
          }}
        >
          <option value="system">{intl.formatMessage(m.system)}</option>
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code} lang={l.code} dir={l.dir}>
              {l.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
