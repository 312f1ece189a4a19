// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import bookdrop from './eslint-rules/layers.js'

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Layers by folder: schemas ← contract ← core ← shell ← hosts; renderer and preload see the contract.
    files: ['schemas/**', 'workers/**', 'contract/**', 'sandbox/**', 'src-main/**', 'src-preload/**', 'src-renderer/**'],
    plugins: { bookdrop },
    rules: { 'bookdrop/layers': 'error' },
  },
  {
    // CommonJS files (electron-builder hooks in build/): require() is how they import.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // core/** is plain Node: it runs in tests, headless mode and the app. Never Electron.
    files: ['src-main/core/**', 'src-main/shell/**', 'contract/**', 'schemas/**', 'sandbox/**', 'workers/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'core/, shell/, the contract and the emulator are plain Node: no electron import.' }] },
      ],
    },
  },
  {
    // The renderer never touches Node, keys or HTTP: it only calls the contract.
    files: ['src-renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', 'electron', '**/src-main/**'], message: 'The renderer only talks to window.bookdrop.' }] },
      ],
    },
  },
)
