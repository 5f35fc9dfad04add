// ESLint for the TypeScript and JavaScript of widget/, storybook/ and examples/ (`npm run lint`,
// `make lint-ts`). Formatting is Prettier's (.prettierrc.json); eslint-config-prettier, last, turns
// off the stylistic rules the two would disagree on. `npm run lint:fix` applies every automatic fix.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The files a tsconfig includes: linted with type information (the compiler already loads them).
const TYPED = ['widget/src/**/*.{ts,tsx}', 'widget/console/src/**/*.{ts,tsx}'];
// (examples/react-host/src is not among them: it types the widget from the built package, widget/lib.)
// The stories beside the widget's source import Storybook: typed by storybook/tsconfig.json, which
// includes them (the widget's own leaves them out, see widget/tsconfig.json).
const STORIES = ['widget/src/**/*.stories.tsx', 'widget/src/test/story/play.ts'];

// Tests and the API fakes they share.
const TESTS = ['**/*.test.{ts,tsx}', 'widget/src/test/**', 'widget/console/src/test/**'];

// Code that runs in Node: build scripts and configs, servers, node:test suites and the e2e drivers.
const NODE = [
  '*.js',
  'widget/scripts/**',
  'widget/*.{ts,mjs}',
  'storybook/.storybook/main.ts',
  'storybook/test/**',
  'examples/*/server.mjs',
  'examples/react-host/vite.config.ts',
  'examples/checkout/{bench,e2e,test}/**',
];

export default defineConfig(
  globalIgnores([
    '**/dist/',
    'widget/lib/',
    'widget/openapi/openapi.gen.ts',
    'storybook/storybook-static/',
    'examples/checkout/test-results/',
    'gen/',
    'bin/',
  ]),
  js.configs.recommended,
  { files: ['**/*.{ts,tsx}'], extends: [tseslint.configs.recommended] },
  {
    files: TYPED,
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // React ignores what an event handler returns, so `onClick={async () => …}` is fine; promises
      // passed anywhere else must still be handled.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: STORIES,
    languageOptions: {
      parserOptions: { projectService: false, project: './storybook/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: TESTS,
    rules: {
      // Tests and fakes read request bodies, mock calls and JSON as untyped data on purpose; the
      // assertions (and the fakes' contract checks) are what type them.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      // expect(obj.method) hands a mock to a matcher; it is never called unbound.
      '@typescript-eslint/unbound-method': 'off',
      // A fake of an async API is async whether or not it awaits anything.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      // An unused argument keeps a callback's signature readable when named with a leading _.
      // A leading _ names an argument kept for the signature; a rest sibling is how an object omits keys.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // `interface X extends Record<…> {}` is how a class declares the properties it defines at runtime.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // verbatimModuleSyntax makes the compiler insist on `import type`; this keeps the spelling uniform.
      // `typeof import('./x')` names a lazily loaded module's type without a static import.
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }] },
  },
  {
    files: ['widget/src/element/element.tsx', 'widget/types/index.d.ts'],
    // The element class merges with an interface that types the attribute properties it defines with
    // Object.defineProperty: the one way to declare them without writing eight accessors.
    rules: { '@typescript-eslint/no-unsafe-declaration-merging': 'off' },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    rules: {
      // Missing effect dependencies are bugs here, not hints.
      'react-hooks/exhaustive-deps': 'error',
      // The next three are React Compiler rules, and the widget is not compiled by it: they reject the
      // latest-value ref (`ref.current = fn` in render), loading state reset in an effect, and Date.now()
      // in an event handler's closure, all correct under plain React 19.
      'react-hooks/refs': 'off',
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/purity': 'off',
    },
  },
  { files: ['**/*.tsx'], extends: [jsxA11y.flatConfigs.recommended] },
  { languageOptions: { globals: globals.browser } },
  { files: NODE, languageOptions: { globals: globals.node } },
  { files: ['examples/checkout/sw.js'], languageOptions: { globals: globals.serviceworker } },
  prettier,
);
