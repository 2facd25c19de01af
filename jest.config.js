/** One jest config for the whole monorepo: unit specs next to the code, integration specs in services/<name>/test, e2e in tools/e2e. */
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
    module: { type: 'commonjs' },
  },
];
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.(t|j|mj)s$': swc },
  // ESM-only dependencies are compiled to CommonJS for jest (node itself loads them via require(esm)).
  transformIgnorePatterns: [
    '/node_modules/(?!(jose|@nats-io|uuid|@kubernetes/client-node|openid-client|oauth4webapi|jsonpath-plus|rfc4648)/)',
  ],
  moduleNameMapper: {
    '^@inquest/([a-z0-9-]+)-service$': '<rootDir>/services/$1/src/main.ts',
    '^@inquest/tool-([a-z0-9-]+)$': '<rootDir>/tools/$1/src/main.ts',
    '^@inquest/([a-z0-9-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^@inquest/([a-z0-9-]+)/testing$': '<rootDir>/libs/$1/src/testing/index.ts',
    '^@inquest/config-model/merge$': '<rootDir>/libs/config-model/src/merge.ts',
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  maxWorkers: 2,
  testTimeout: 30000,
};
