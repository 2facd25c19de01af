// ESLint flat config for the whole monorepo: `npm run lint` (eslint .) and nx `lint` targets
// (`eslint {projectRoot}`). Type-aware rules use the root tsconfig.json through the project service.
import nx from '@nx/eslint-plugin';
import globals from 'globals';
import { createProjectGraphAsync } from '@nx/devkit';

// @nx/enforce-module-boundaries reads nx's cached project graph and silently skips itself when
// there is none (fresh clone, CI): compute it first so plain `eslint .` enforces boundaries too.
await createProjectGraphAsync({ exitOnError: false });

const TS = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];

// Packages that domain code (services/<name>/src/domain) may not import: transport, storage,
// metrics, circuit breakers.
const DOMAIN_FORBIDDEN = [
  '@inquest/proto',
  '@grpc/grpc-js',
  'mongodb',
  'better-sqlite3',
  'prom-client',
  'opossum',
];
const DOMAIN_PATTERNS = DOMAIN_FORBIDDEN.map((name) => ({
  group: [name, `${name}/**`],
  message: `domain code must not import ${name}: declare a port in the domain and implement it in src/adapters or src/grpc`,
}));
// Checked per file, not as an nx tag constraint: nx follows dependencies transitively and every
// lib whose testing/ folder uses @inquest/testing would count as depending on it.
const TESTING_SUBPATHS = {
  group: ['@inquest/testing', '@inquest/*/testing', '@inquest/*/testing/**'],
  message: 'test servers, builders and contract suites are for specs only',
};

/** Who may import whom (project tags from each project.json). */
const boundaries = (allow = []) => [
  'error',
  {
    allow,
    enforceBuildableLibDependency: false,
    depConstraints: [
      { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['*'] },
    ],
  },
];

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'libs/proto/src/gen/**',
      '.nx/**',
      '.inquest/**',
      'coverage/**',
      'clients/**',
      'deploy/**',
      '**/*.d.ts',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    files: TS,
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // noUncheckedIndexedAccess makes `!` the honest way to say "checked above".
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@nx/enforce-module-boundaries': boundaries(),
    },
  },
  {
    // tools start services in one process (launcher, e2e, bench): they may import services' main.
    files: ['tools/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries([
        '^@inquest/[a-z0-9-]+-service$',
        '^@inquest/tool-[a-z0-9-]+$',
      ]),
    },
  },
  {
    // a service's integration tests may run the demo tool server as a real peer
    files: ['services/*/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries([
        '^@inquest/tool-demo-toolserver$',
        // a tool server's integration test shows the real proxy lists and calls it
        '^@inquest/toolserver-proxy-service$',
      ]),
    },
  },
  {
    files: ['services/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // Production code (not specs, not a lib's testing/ subpath) uses no test helper: neither
    // @inquest/testing nor a lib's `testing` subpath.
    files: ['services/*/src/**/*.ts', 'libs/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/testing/**', 'libs/testing/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [TESTING_SUBPATHS] }] },
  },
  {
    // Domain code knows no transport, storage or metrics library: ports in the domain, adapters
    // beside it. Specs next to the domain code are held to the same rule.
    files: ['services/*/src/domain/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: DOMAIN_PATTERNS }] },
  },
  {
    files: ['services/*/src/domain/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...DOMAIN_PATTERNS, TESTING_SUBPATHS] }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module' },
  },
];
