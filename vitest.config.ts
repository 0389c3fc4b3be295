import { defineConfig } from 'vitest/config';

/**
 * The test files that start a server (the demo server, a test HTTP server, the web shell's host), PostgreSQL (a
 * server, or the embedded record, which serves PGlite on a socket), a browser or another program (openssl, qpdf,
 * a CLI): the `integration` project. Every other file is `unit`, and test/helpers/unit-guard.ts fails a unit test
 * that starts one. A new file that needs them is named *.integration.test.ts or listed here. docs/testing.md.
 */
const integration = [
  'test/**/*.integration.test.ts',
  // Against the demo server over HTTP.
  'test/main/demo-server/**/*.test.ts',
  'test/main/omni/client.demo-server.test.ts',
  'test/main/log.redaction.test.ts',
  // A test HTTP server of their own.
  'test/main/capture/streaming-fetch.test.ts',
  'test/main/media/stream.encoded.test.ts',
  // The review record on PostgreSQL (embedded PGlite or a server), or a whole app context around it.
  'test/main/record/**/*.test.ts',
  'test/main/review/queue.test.ts',
  'test/main/review/service.test.ts',
  'test/main/review/service.four-eyes.test.ts',
  'test/main/review/team-desk.test.ts',
  'test/main/ipc/handlers/app.test.ts',
  'test/main/nom151/service.trusted-root-audit.test.ts',
  'test/main/settings/service.test.ts',
  'test/main/settings/team-database.test.ts',
  'test/main/app-context.test.ts',
  'test/main/electron/bootstrap.test.ts',
  'test/main/private-files.test.ts',
  // The web shell and its host.
  'test/main/web-shell/**/*.test.ts',
  'test/preload/web.test.ts',
  // Other programs: openssl, qpdf and mutool, the start and packaging scripts.
  'test/main/nom151/tsa.test.ts',
  'test/main/nom151/verify.openssl-interop.test.ts',
  'test/main/nom151/verify.third-party-tools.test.ts',
  'test/scripts/packaging-host.test.ts',
  'test/scripts/start.test.ts',
];

/**
 * Unit files that replace a module (`vi.mock`) or a global (`vi.stubGlobal`): they need a module graph of their own.
 * Every other unit file shares its worker's modules (`isolate: false`): most of unit's time was each file importing
 * the same modules again (docs/testing.md). A new file that mocks a module is listed here.
 */
const mocksModules = [
  'test/renderer/features/interviews/queue-view.test.ts',
  'test/renderer/features/interviews/prefetch.test.ts',
  'test/main/media/stream.test.ts',
  'test/main/media/registry.test.ts',
  'test/main/electron/store.test.ts',
];

/** The same for integration files: isolated, while the others share their worker's modules and process. */
const integrationMocks = ['test/main/electron/bootstrap.test.ts', 'test/preload/web.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Processed by vitest rather than loaded by Node, so that its `import electron from 'electron'` takes a test's
    // stand-in (test/main/electron/store.test.ts): loaded by Node, the real package tries to fetch Electron's binary.
    server: { deps: { inline: ['electron-store'] } },
    // Every *.test.ts under test/, in one of two projects (the e2e journeys are *.spec.ts, run by Playwright).
    // `vitest run` runs both (npm test); `--project unit` or `--project integration` one (npm run test:unit,
    // npm run test:integration).
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...integration, ...mocksModules],
          setupFiles: ['test/helpers/unit-guard.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-mocks',
          include: mocksModules,
          setupFiles: ['test/helpers/unit-guard.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: integration,
          exclude: integrationMocks,
          // vitest's default is one worker fewer than the cores: ONE on a 2-core machine, so these files, which
          // mostly wait on servers, PostgreSQL, browsers and other programs, ran one at a time. Four at once keep
          // the cores busy (docs/testing.md, "What each cut saved"). A project with its own worker count runs in
          // its own group: after unit's files.
          maxWorkers: 4,
          // Each file importing main's modules again was 70 s of the project's 227 s of CPU (docs/testing.md, fourth
          // round). A file that changes the process (an environment variable, a global) puts it back.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-mocks',
          include: integrationMocks,
          // The same count and group as integration's: its two files run beside those, not after them on one core.
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
