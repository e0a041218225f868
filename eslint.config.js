// Lint: TypeScript's recommended rules, React's hook rules, and the import
// direction of docs/architecture.md (core ← web, server, cli).
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const restrict = (patterns, message) => ['error', { patterns: [{ group: patterns, message }] }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] },
  },
  {
    // A function a newcomer reads at once (docs/architecture.md): longer ones are split where they change subject.
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 80, IIFEs: true }] },
  },
  {
    // Tests edit JSON fixtures of any shape.
    files: ['tests/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/web/**/*.{ts,tsx}', 'src/studio/**/*.{ts,tsx}', 'tests/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['react', 'react-*', 'react/*', '@rjsf/*', 'fastify', '@fastify/*', 'node:*', 'i18next', '**/web/**', '**/server/**', '**/cli/**'],
        'src/core is framework-free: no React, rjsf, Fastify or node:*, and nothing of web, server or cli.',
      ),
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict(['node:*', 'fastify', '@fastify/*', '**/server/**', '**/cli/**', '**/studio/**'], 'The page imports core, never server, cli or studio code.'),
    },
  },
  {
    // The studio is a static browser app: whatever it imports is bundled for the browser.
    files: ['src/studio/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict(
        ['node:*', 'fastify', '@fastify/*', '**/server/**', '**/cli/**'],
        'The studio runs in a browser with no server of its own: no node:*, Fastify, server or cli code.',
      ),
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(['react', 'react-*', '@rjsf/*', '**/web/**', '**/cli/**'], 'The server imports core and data, never page or cli code.'),
    },
  },
);
