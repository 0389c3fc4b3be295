// Lint: typescript-eslint's recommended rules, React's hooks rules, and the import boundaries between processes
// (docs/architecture.md). Formatting is Prettier's job, so stylistic rules are off (eslint-config-prettier).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** An import that climbs out of its folder into one of `folders` at the root of the project. */
const into = (folders, message) => ({ regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message });
const boundary = (files, folders, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [into(folders, message)] }] },
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'dist/',
      '.tmp/',
      'test-results/',
      'playwright-report/',
      'main/capture/base64-simd-wasm.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: globals.node } },
  // Tests read raw service answers loosely, as the service's own clients would.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  boundary(
    ['renderer/**'],
    ['main', 'preload', 'test', 'bench'],
    'The renderer imports only common/ and itself; main-process work goes through IPC.',
  ),
  boundary(
    ['preload/**'],
    ['main', 'renderer', 'test', 'bench'],
    'The preload is only the bridge: it imports common/ and itself.',
  ),
  boundary(
    ['common/**'],
    ['main', 'preload', 'renderer', 'test', 'bench'],
    'common/ is the bottom layer: it imports nothing of the processes above it.',
  ),
  boundary(['main/**'], ['renderer', 'preload', 'test', 'bench'], 'main imports common/ and itself.'),
  boundary(['scripts/**'], ['test', 'bench'], 'Nothing imports test/ or bench/.'),
  prettier,
);
