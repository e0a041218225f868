// The server's walls (docs/architecture.md), checked by `npm run lint`:
//   routes → intake → storage;  outbox → storage, delivery;  storage imports no feature.
// Only storage/open-storage.ts picks a backend: nothing else reaches into storage/sqlite or storage/postgres.
const server = (folders) => `^src/server/(${folders.join('|')})(/|\\.ts$)`;

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: { path: '^src' }, to: { circular: true } },
    {
      name: 'storage-is-the-floor',
      comment: 'storage/ stands under every feature and imports none of them.',
      severity: 'error',
      from: { path: '^src/server/storage/' },
      to: { path: '^src/server/', pathNot: '^src/server/storage/' },
    },
    {
      name: 'one-door-to-the-backends',
      comment: 'Which database is used is decided in storage/open-storage.ts; the rest speaks to the port.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/server/storage/' },
      to: { path: '^src/server/storage/(sqlite|postgres)/' },
    },
    {
      name: 'delivery-under-intake-and-outbox',
      severity: 'error',
      from: { path: '^src/server/delivery/' },
      to: { path: server(['intake', 'outbox', 'routes', 'privacy', 'no-script', 'plugins', 'app']) },
    },
    {
      name: 'outbox-under-the-app',
      severity: 'error',
      from: { path: '^src/server/outbox/' },
      to: { path: server(['intake', 'routes', 'privacy', 'no-script', 'plugins', 'app']) },
    },
    {
      name: 'intake-under-the-routes',
      severity: 'error',
      from: { path: '^src/server/intake/' },
      to: { path: server(['routes', 'outbox', 'privacy', 'no-script', 'plugins', 'app']) },
    },
    {
      name: 'revisions-under-their-readers',
      comment: 'revisions/ reads forms from core and storage only; intake, outbox, delivery, privacy and the routes read requests by it.',
      severity: 'error',
      from: { path: '^src/server/revisions/' },
      to: { path: server(['intake', 'outbox', 'delivery', 'routes', 'privacy', 'no-script', 'plugins', 'app']) },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
