import { defineMessages } from 'react-intl'
import { Screen } from '../components/Screen'
import { useI18n } from '../lib/i18n'
import { Connection } from './settings/Connection'
import { DataFolder } from './settings/DataFolder'
import { DuplicateSetting } from './settings/Duplicates'
import { PhotosAndPhones, Preferences } from './settings/Preferences'
import { Profiles } from './settings/Profiles'
import messages from './Settings.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** The Settings screen: profiles, preferences, the connection, photos and phones, the data folder. */
export function Settings() {
  const intl = useI18n()
  return (
    <Screen title={intl.formatMessage(m.title)}>
      <Profiles />
      <Preferences />
      <DuplicateSetting />
      <Connection />
      <PhotosAndPhones />
      <DataFolder />
    </Screen>
  )
}
