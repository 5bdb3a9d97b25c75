// The walls of docs/ARCHITECTURE.md, checked by test/architecture.test.ts (npm test).
// Layers: domain (vocabulary, no imports) ← platform (infrastructure) ← modules ← app.ts / main.ts.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-module',
      comment: 'platform/ is infrastructure with no business rules: it never imports a module or app.ts',
      severity: 'error',
      from: { path: '^src/platform/', pathNot: '[.]test[.]ts$' },
      to: { path: ['^src/modules/', '^src/app[.]ts$', '^src/main[.]ts$'] },
    },
    {
      name: 'domain-imports-nothing-of-ours',
      comment: 'domain/ is the shared vocabulary: plain constants and types, depending on nothing else of ours',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: ['^src/platform/', '^src/modules/', '^src/app[.]ts$'] },
    },
    {
      name: 'module-imports-only-app-free',
      comment: 'modules get the platform through AppDeps (platform/deps.ts), never from app.ts or main.ts',
      severity: 'error',
      from: { path: '^src/modules/', pathNot: '[.]test[.]ts$' },
      to: { path: ['^src/app[.]ts$', '^src/main[.]ts$'] },
    },
    {
      name: 'modules-only-through-index',
      comment: "a module reaches another module only through that module's index.ts",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: '([.]test|/testing)[.]ts$' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index[.]ts$'] },
    },
    {
      name: 'tests-only-through-index-or-testing',
      comment: "a module's tests and fixtures reach other modules through index.ts or their testing.ts fixtures",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/.+([.]test|/testing)[.]ts$' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/(index|testing)[.]ts$'] },
    },
    {
      name: 'no-module-cycles',
      comment: 'no import cycles through modules, not even of types: a module depends only on modules below it',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { circular: true, viaOnly: { pathNot: '([.]test|/testing)[.]ts$' } },
    },
    {
      name: 'no-runtime-cycles',
      comment: 'no runtime import cycles anywhere (a type-only loop inside platform/, e.g. AppDeps ↔ JobContext, is allowed)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { pathNot: '([.]test|/testing)[.]ts$', dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-shared-outside-repo',
      comment: 'nothing in the repository depends on a path outside it',
      severity: 'error',
      from: {},
      to: { path: '^[.][.]/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|web/dist)' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
