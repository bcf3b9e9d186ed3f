// The layers of docs/architecture.md as rules the code keeps by itself (issue 27): test/structure/layers.test.ts
// runs these over src/ in `npm test`. A rule here is a sentence of the architecture: change both together.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Zero import cycles, type-only imports included: a cycle is two modules that cannot be understood apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'hub-is-pure',
      severity: 'error',
      comment: 'The hub holds canonical types and pure helpers: it knows no format, provider, transport or storage.',
      from: { path: '^src/hub/' },
      to: { path: '^src/', pathNot: ['^src/hub/', '^src/gateway-errors\\.ts$', '^src/gateway-error-codes\\.ts$', '^src/metering/usage\\.ts$'] },
    },
    {
      name: 'formats-know-only-the-hub',
      severity: 'error',
      comment: 'A format converts one wire format to and from the hub; it never calls the relay, HTTP, storage or routing.',
      from: { path: '^src/formats/' },
      to: { path: '^src/(relay|http|endpoints|db|routing|upstream|accounts|admin|payments|responses|realtime|cluster|config)/' },
    },
    {
      name: 'only-http-speaks-fastify',
      severity: 'error',
      comment: 'Only src/http/ (and the two files that build and start the app) imports Fastify.',
      from: { path: '^src/', pathNot: ['^src/http/', '^src/app\\.ts$', '^src/start-gateway\\.ts$'] },
      to: { path: 'node_modules/(fastify|@fastify)/' },
    },
    {
      name: 'relay-has-no-sql-or-http',
      severity: 'error',
      comment: 'The relay knows channels, hops and attempts: it runs no SQL and no HTTP routing (it may name a row type or the metrics type).',
      from: { path: '^src/relay/' },
      to: { path: '^src/(http|db)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'storage-below-requests',
      severity: 'error',
      comment: 'Storage knows tables, not requests.',
      from: { path: '^src/db/' },
      to: { path: '^src/(relay|http|endpoints|formats)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.json') },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
