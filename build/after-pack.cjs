// electron-builder afterPack hook: sets Electron's fuses on the packaged binary (design.md §5),
// before signing. Referenced from build/electron-builder.yml; tested in test/shell/after-pack.test.ts
// on a stand-in binary (this machine cannot download Electron).
//
//   RunAsNode                              off  ELECTRON_RUN_AS_NODE cannot turn the app into a plain Node
//   EnableNodeOptionsEnvironmentVariable   off  NODE_OPTIONS is ignored
//   EnableNodeCliInspectArguments          off  --inspect and friends are ignored
//   EnableEmbeddedAsarIntegrityValidation  on   app.asar is checked against the hash in the app (macOS, Windows)
//   OnlyLoadAppFromAsar                    on   the app is loaded from app.asar only, never a loose folder
//   EnableCookieEncryption                 on   the cookie store is encrypted with an OS-held key
//   GrantFileProtocolExtraPrivileges       off  file:// pages get no extra powers: the renderer comes
//                                               from the app's own app://bookdrop/ scheme
//                                               (src-main/shell/app-protocol.ts)
//
// LoadBrowserProcessSpecificV8Snapshot stays off (the default). Fuses this version of @electron/fuses
// does not know keep Electron's defaults; the hook names them so a reviewer can decide.
'use strict'
const path = require('node:path')
const { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } = require('@electron/fuses')

/** The fuses we set, by option; everything else is left as Electron ships it. */
const FUSES = {
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
}

// electron-builder's Arch enum: ia32 0, x64 1, armv7l 2, arm64 3, universal 4.
const ARCH_ARM64 = 3
const ARCH_UNIVERSAL = 4

/** The packaged Electron executable (or .app bundle) inside appOutDir. */
function electronBinaryPath(context) {
  const { appOutDir, electronPlatformName, packager } = context
  const product = packager.appInfo.productFilename
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(appOutDir, `${product}.app`)
    case 'win32':
      return path.join(appOutDir, `${product}.exe`)
    case 'linux':
      return path.join(appOutDir, packager.executableName)
    default:
      throw new Error(`after-pack: unknown platform ${electronPlatformName}`)
  }
}

function fuseConfig(context) {
  const mac = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas'
  return {
    version: FuseVersion.V1,
    // Flipping fuses breaks the ad-hoc signature Apple silicon requires; re-sign ad hoc (real signing
    // comes after this hook and replaces it).
    resetAdHocDarwinSignature: mac && (context.arch === ARCH_ARM64 || context.arch === ARCH_UNIVERSAL),
    ...FUSES,
  }
}

// Byte values of a fuse's state in the binary ('0', '1', 'r').
const STATE = { off: 0x30, on: 0x31, removed: 0x72 }

/** Reads the wire back and fails the build unless every fuse we set has the state we asked for. */
async function verifyFuses(binary) {
  const wire = await getCurrentFuseWire(binary)
  const problems = []
  for (const [option, wanted] of Object.entries(FUSES)) {
    const state = wire[option]
    if (state === STATE.removed) continue // Electron retired this fuse; nothing to set
    if (state !== (wanted ? STATE.on : STATE.off)) {
      problems.push(`${FuseV1Options[option]} should be ${wanted ? 'on' : 'off'} (found ${state === undefined ? 'nothing' : String.fromCharCode(state)})`)
    }
  }
  if (problems.length) throw new Error(`after-pack: fuses not set: ${problems.join('; ')}`)
  const unknown = Object.keys(wire).filter((k) => k !== 'version' && FuseV1Options[k] === undefined)
  return { wire, unknown }
}

async function afterPack(context) {
  const binary = electronBinaryPath(context)
  await flipFuses(binary, fuseConfig(context))
  const { unknown } = await verifyFuses(binary)
  const names = Object.keys(FUSES).map((k) => FuseV1Options[k])
  console.log(`  • fuses set on ${path.basename(binary)}: ${names.join(', ')}`)
  if (unknown.length) {
    console.warn(`  • this Electron has ${unknown.length} fuse(s) @electron/fuses does not name (wire positions ${unknown.join(', ')}); left as Electron ships them`)
  }
}

module.exports = afterPack
module.exports.default = afterPack
module.exports.FUSES = FUSES
module.exports.electronBinaryPath = electronBinaryPath
module.exports.fuseConfig = fuseConfig
module.exports.verifyFuses = verifyFuses
