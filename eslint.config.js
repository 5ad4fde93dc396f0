import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tolk/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
    },
  },
  {
    // The web dashboard runs in the browser (its .tsx files are linted by typescript-eslint too).
    files: ['dashboard/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The domain (a service's use cases, the shared domain packages, the error vocabulary itself)
    // speaks in @tolk/errors; only routers, the frame and the gateway know HTTP.
    files: [
      'services/*/src/domain/**/*.ts',
      'libs/locale-file/**/*.ts',
      'libs/projects/**/*.ts',
      'libs/errors/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tolk/http',
              message: 'Domain code imports its errors from @tolk/errors; @tolk/http maps them.',
            },
            { name: 'express', message: 'Domain code knows no HTTP framework.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/test/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'it', property: 'only' },
        { object: 'describe', property: 'only' },
      ],
    },
  },
);
