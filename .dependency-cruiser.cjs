// The server's walls (docs/architecture.md), checked by `npm run lint`:
//   routes → intake → storage;  outbox → storage, delivery;  storage imports no feature.
// Only storage/open-storage.ts picks a backend: nothing else reaches into storage/sqlite or storage/postgres.
const server = (folders) => `^src/server/(${folders.join('|')})(/|\\.ts$)`;

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: { path: '^src' }, to: { circular: true } },
    {
      name: 'the-page-ships-no-studio',
      comment: "A customer's page never loads the studio's code: the studio is a room beside web, and only it looks in.",
      severity: 'error',
      from: { path: '^src/(web|core)/' },
      to: { path: '^src/studio/' },
    },
    {
      name: 'the-studio-beside-web',
      comment: 'The studio runs in a browser with nothing of the server: it reads core and the page, and hands changes over itself.',
      severity: 'error',
      from: { path: '^src/studio/' },
      to: { path: '^src/(server|cli)/' },
    },
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
    {
      name: 'config-above-what-it-configures',
      comment: 'config.ts reads the settings of photos, intake and plugins; they raise ConfigError from config-error.ts, never from config.ts.',
      severity: 'error',
      from: { path: '^src/server/', pathNot: '^src/server/(config|server|app)\\.ts$' },
      to: { path: '^src/server/config\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'photos-below-config',
      severity: 'error',
      from: { path: '^src/server/photos/' },
      to: { path: '^src/server/config\\.ts$' },
    },
    {
      name: 'pages-under-the-app',
      comment: 'web/app.tsx routes to the pages; pages read the brands, countries and head from web/app/, a floor below both.',
      severity: 'error',
      from: { path: '^src/web/(app|components|form|i18n|lib)/' },
      to: { path: '^src/web/(app\\.tsx$|pages/)' },
    },
    {
      name: 'the-app-above-its-pages',
      severity: 'error',
      from: { path: '^src/web/pages/' },
      to: { path: '^src/web/app\\.tsx$' },
    },
    {
      name: 'form-floor-under-hooks',
      comment: "The form's state, context and handlers (web/form/*.ts) stand under its hooks, which read them.",
      severity: 'error',
      from: { path: '^src/web/form/[^/]+\\.ts$' },
      to: { path: '^src/web/form/hooks/' },
    },
    {
      name: 'form-context-under-widgets',
      comment: 'Widgets read the form context; it names the upload state (web/form/upload-state.ts), not a widget.',
      severity: 'error',
      from: { path: '^src/web/form/form-context\\.ts$' },
      to: { path: '^src/web/form/(widgets|fields|templates)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
