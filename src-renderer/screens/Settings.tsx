import { defineMessages } from 'react-intl'
import { Screen } from '../components/Screen'
import { useI18n } from '../lib/i18n'
import { Connection } from './settings/Connection'
import { DataFolder } from './settings/DataFolder'
import { PhotosAndPhones, Preferences } from './settings/Preferences'
import { Profiles } from './settings/Profiles'

const m = defineMessages({
  title: { id: 'settings.title', defaultMessage: 'Settings' },
})

/** The Settings screen: profiles, preferences, the connection, photos and phones, the data folder. */
export function Settings() {
  const intl = useI18n()
  return (
    <Screen title={intl.formatMessage(m.title)}>
      <Profiles />
      <Preferences />
      <Connection />
      <PhotosAndPhones />
      <DataFolder />
    </Screen>
  )
}
