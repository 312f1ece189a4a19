import { Screen } from '../components/Screen'
import { Connection } from './settings/Connection'
import { DataFolder } from './settings/DataFolder'
import { DuplicateSetting } from './settings/Duplicates'
import { PhotosAndPhones, Preferences } from './settings/Preferences'
import { Profiles } from './settings/Profiles'

/** The Settings screen: profiles, preferences, the connection, photos and phones, the data folder. */
export function Settings() {
  return (
    <Screen title="Settings">
      <Profiles />
      <Preferences />
      <DuplicateSetting />
      <Connection />
      <PhotosAndPhones />
      <DataFolder />
    </Screen>
  )
}
