/**
 * profiles.json: the profile list and the active profile's id, never a secret. Read strictly (a
 * damaged file is an error that says so, and leaves the keychain alone), written atomically with
 * only the schema's fields.
 */
import { readFile } from 'node:fs/promises'
import { writeFileAtomic } from './atomic-file'
import { EMPTY_FILE, ProfileError, type ProfilesFile, profilesFileSchema } from './profile-rules'
import { errnoCode } from '../util'

/** The file's content (an empty list when there is no file); ProfileError('storage') when damaged. */
export async function readProfilesFile(file: string): Promise<ProfilesFile> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return structuredClone(EMPTY_FILE)
    throw new ProfileError('storage', `Cannot read ${file}: ${(err as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ProfileError(
      'storage',
      `${file} is damaged (not JSON). Keys in the keychain are untouched; restore the file or remove it to start a new profile list.`,
    )
  }
  const parsed = profilesFileSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue ? `${issue.path.join('.') || 'file'}: ${issue.message}` : 'unexpected content'
    throw new ProfileError(
      'storage',
      `${file} is damaged (${where}). Keys in the keychain are untouched; restore the file or remove it to start a new profile list.`,
    )
  }
  const data = parsed.data
  if (data.activeProfileId !== null && !data.profiles.some((p) => p.id === data.activeProfileId)) {
    data.activeProfileId = null
  }
  return data
}

/** Writes `next` and returns what was written; ProfileError('storage') when it cannot be saved. */
export async function writeProfilesFile(file: string, next: ProfilesFile): Promise<ProfilesFile> {
  // Parse on the way out too: only the schema's fields (never a secret) reach the disk.
  const clean = profilesFileSchema.parse(next)
  try {
    await writeFileAtomic(file, JSON.stringify(clean, null, 2) + '\n')
  } catch (err) {
    throw new ProfileError('storage', `Cannot save ${file}: ${(err as Error).message}`)
  }
  return clean
}
