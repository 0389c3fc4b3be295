import { parseArgs } from 'node:util';
import { startDemoServer } from './index';
import { DemoProfile } from './production-profile';

const USAGE =
  'Usage: npm run demo-server -- [--port 4010] [--host 127.0.0.1] [--allow-non-loopback] [--image-url-allow DOMAIN]... [--max-body-mb 200] [--profile spec|production-like]';

function readArgs() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        'allow-non-loopback': { type: 'boolean', default: false },
        'image-url-allow': { type: 'string', multiple: true, default: [] },
        'max-body-mb': { type: 'string' },
        profile: { type: 'string', default: 'spec' },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    process.exit(2);
  }
}

const values = readArgs();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a number from 0 to 65535; got ${values.port}`);
  process.exit(2);
}
const maxBodyMb = values['max-body-mb'] === undefined ? undefined : Number(values['max-body-mb']);
if (maxBodyMb !== undefined && !(maxBodyMb > 0)) {
  console.error(`--max-body-mb must be a positive number; got ${values['max-body-mb']}`);
  process.exit(2);
}

const profile = DemoProfile.safeParse(values.profile);
if (!profile.success) {
  console.error(`--profile must be spec or production-like; got ${values.profile}`);
  process.exit(2);
}

try {
  const server = await startDemoServer({
    profile: profile.data,
    port,
    host: values.host,
    allowNonLoopback: values['allow-non-loopback'],
    imageUrlAllowList: values['image-url-allow'],
    ...(maxBodyMb ? { maxBodyBytes: Math.round(maxBodyMb * 1024 * 1024) } : {}),
  });
  console.log(
    `Omni demo server listening on ${server.url} (credentials: ${server.url}/__demo/credentials, profile: ${profile.data})`,
  );
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  console.error(`Demo server could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
