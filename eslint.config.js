// ESLint over the package's code: the recommended rules of ESLint and of typescript-eslint with type information
// (floating promises and misused async functions are the bugs this code base can make), formatting left to Prettier.
// Every rule turned off or down says why.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Note: generated/ is written by the generators, each package's dist/ by tsc, docs/site/ by the docs build,
  // VitePress's cache and .temp by VitePress.
  {
    ignores: [
      'packages/*/dist/',
      'packages/contract/generated/',
      'docs/site/',
      'docs/.vitepress/cache/',
      'docs/.vitepress/.temp/',
      'release/',
      'artifacts/',
      'node_modules/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'packages/*/bin/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Note: the code base's objects are closures made by factories (stores, runners, clients, the sandbox's runtime);
      // `this` appears only in error classes' constructors and one prom-client `collect`, so a method passed on as a
      // callback (`onError: settings.onError`) or destructured (`const { stop } = supervise(…)`) never loses anything.
      '@typescript-eslint/unbound-method': 'off',
      // Note: its findings are async functions that implement a promise-returning interface without awaiting (the
      // memory registry beside the postgres one, a stub `fetch`, a lazy subcommand); `async` keeps a throw a rejection.
      '@typescript-eslint/require-await': 'off',
      // Note: every control character in a regex here is written as an escape on purpose: problem+json text, metadata
      // and log lines strip or refuse C0 controls, and a test strips ANSI colours.
      'no-control-regex': 'off',
      // Note: an abort ends a wait or a request with the signal's own reason, as fetch does; `signal.reason` is typed any.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true }],
      // Note: `_name` marks a parameter or a destructured member left out on purpose (a rest sibling that drops a key).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['test/**'],
    rules: {
      // Note: tests read `await response.json()` and parsed YAML, typed `any`, and assert on its members with expect();
      // a wrong member fails the assertion, so typing each body first would only add casts. src/ keeps these rules.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // A package imports only the npm packages its own package.json lists, so that its install has what it runs. The
    // imports between the workspaces are judged by `npm run lint`'s dpdm step (scripts/lib/package-walls.mjs), which
    // resolves them as tsc does.
    files: ['packages/**'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: false, optionalDependencies: false, peerDependencies: true, includeTypes: true },
      ],
    },
  },
  {
    // The dashboard's page runs in a browser and is bundled by Vite at build time: Preact and Vite are the repository's
    // devDependencies, never the installed sandbox's, which ships only the built files.
    files: ['packages/sandbox/dashboard/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: true, packageDir: [import.meta.dirname, `${import.meta.dirname}/packages/sandbox`] },
      ],
    },
  },
  // Note: the scripts, bins and plain-JavaScript sources are not type-checked (checkJs is off), so rules that need types cannot run on them.
  { files: ['**/*.js', '**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
  prettier,
);
