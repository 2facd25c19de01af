// ESLint flat config for the whole monorepo: `npm run lint` (eslint .) and nx `lint` targets
// (`eslint {projectRoot}`). Type-aware rules use the root tsconfig.json through the project service.
import nx from '@nx/eslint-plugin';
import globals from 'globals';
import { createProjectGraphAsync } from '@nx/devkit';

// @nx/enforce-module-boundaries reads nx's cached project graph and silently skips itself when
// there is none (fresh clone, CI): compute it first so plain `eslint .` enforces boundaries too.
await createProjectGraphAsync({ exitOnError: false });

const TS = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];

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
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module' },
  },
];
