import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, ConfigJsonError } from '../gateway/auth.ts';
import { GatewayConfig } from '../gateway/config.ts';
import { isPostgresUrl, startGateway, urlHost } from '../gateway/gateway.ts';
import { gatewayEnvironment } from './gateway-env.ts';
import { boundHeapGrowth } from '../gateway/infra/heap-growth.ts';
import { PolicyLoadError } from '../gateway/policy/policy-load.ts';
import { RoutingLoadError } from '../gateway/routing/routing-load.ts';
import { auditStartLine } from '../gateway/audit/audit-keys.ts';

const USAGE =
  'usage: askdock gateway [--host H] [--port N] [--db FILE|postgres://user:pass@host:port/db] [--config FILE] [--secrets-key FILE] [--ui DIR] [--requester-grace S] [--public-url URL]';

type Flags = { host: string; port: number; db: string; config?: string; secretsKey?: string; ui?: string; requesterGraceMs?: number; publicUrl?: string };

function parseFlags(argv: string[]): Flags | string {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        db: { type: 'string' },
        config: { type: 'string' },
        'secrets-key': { type: 'string' },
        ui: { type: 'string' },
        'requester-grace': { type: 'string' },
        'public-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return (err as Error).message;
  }
  if (values.help) return 'help';
  const portText = (values.port as string | undefined) ?? '7420';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) return `--port must be an integer 0..65535, got "${portText}"`;
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  if (!host) return '--host must not be empty';
  const secretsKey = values['secrets-key'] as string | undefined;
  if (secretsKey === '') return '--secrets-key must name a file';
  const ui = values.ui as string | undefined;
  if (ui !== undefined && !existsSync(join(ui, 'index.html'))) return `--ui: no index.html in "${ui}" (build the Control UI with npm run build, or name its folder)`;
  const grace = values['requester-grace'] as string | undefined;
  // Q7: how long an asker's blocking questions wait for it to reconnect (default 30 s).
  if (grace !== undefined && !/^\d+$/.test(grace)) return `--requester-grace must be a whole number of seconds, got "${grace}"`;
  const publicUrl = values['public-url'] as string | undefined;
  if (publicUrl !== undefined && !GatewayConfig.shape.publicUrl.safeParse(publicUrl).success)
    return `--public-url must be an http:// or https:// address, got "${publicUrl}"`;
  return {
    host,
    port,
    db: (values.db as string | undefined) ?? DEFAULT_DB,
    config: values.config as string | undefined,
    secretsKey,
    ...(ui !== undefined ? { ui: resolve(ui) } : {}),
    ...(grace !== undefined ? { requesterGraceMs: Number(grace) * 1000 } : {}),
    ...(publicUrl !== undefined ? { publicUrl } : {}),
  };
}

const DEFAULT_DIR = './.askdock';
const DEFAULT_DB = join(DEFAULT_DIR, 'askdock.db');

/**
 * K1: the key file. On SQLite it lives beside the database; on PostgreSQL every gateway of the database needs the
 * same one: `--secrets-key`, else `secrets.key` beside the shared `--config`, else in `./.askdock/`.
 */
function secretKeyFileOf(flags: Flags): string | undefined {
  if (flags.secretsKey) return flags.secretsKey;
  if (!isPostgresUrl(flags.db)) return undefined;
  return flags.config ? undefined : join(DEFAULT_DIR, 'secrets.key');
}

const say = (line: string) => process.stdout.write(line + '\n');

/** `askdock gateway`: the gateway alone, until SIGINT or SIGTERM. */
export async function run(argv: string[]): Promise<number> {
  const flags = parseFlags(argv);
  if (flags === 'help') {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (typeof flags === 'string') {
    process.stderr.write(`askdock gateway: ${flags}\n${USAGE}\n`);
    return 2;
  }
  boundHeapGrowth();
  let gateway;
  try {
    const secretKeyFile = secretKeyFileOf(flags);
    gateway = await startGateway({
      host: flags.host,
      port: flags.port,
      dbPath: flags.db,
      configPath: flags.config,
      ...(secretKeyFile ? { secretKeyFile } : {}),
      ...(flags.ui !== undefined ? { uiDir: flags.ui } : {}),
      ...(flags.requesterGraceMs !== undefined ? { requesterGraceMs: flags.requesterGraceMs } : {}),
      ...(flags.publicUrl !== undefined ? { publicUrl: flags.publicUrl } : {}),
      announce: say,
      ...gatewayEnvironment(),
    });
  } catch (err) {
    // G10/E1: fail closed, exit 1, with the file, the place in it and the problem (a config that is no JSON holds no policy).
    if (err instanceof PolicyLoadError || err instanceof RoutingLoadError || err instanceof ConfigJsonError) {
      process.stderr.write(`askdock gateway: ${err.message}\n`);
      return 1;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`askdock gateway: ${err.message}\n`);
      return 2;
    }
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? `port ${flags.port} on ${flags.host} is already in use: pick another with --port` : (err as Error).message;
    process.stderr.write(`askdock gateway: ${why}\n`);
    return 1;
  }
  // Listening for signals before saying so: a supervisor may stop it the moment it reads the line.
  const stopSignal = new Promise<NodeJS.Signals>((done) => {
    process.once('SIGINT', () => done('SIGINT'));
    process.once('SIGTERM', () => done('SIGTERM'));
  });
  process.stdout.write(`askdock gateway listening on http://${urlHost(gateway.host)}:${gateway.port}\n`);
  process.stdout.write(`${auditStartLine(gateway.audit)}\n`);
  // A1: with generated identities (no --config) the Control UI address with the operator token, on every start.
  const operator = flags.config ? undefined : gateway.identities.identities.find((i) => i.scopes.includes('operator.admin'));
  if (operator?.token) process.stdout.write(`Control UI: ${gateway.publicUrl}/?token=${encodeURIComponent(operator.token)}\n`);
  if (gateway.identitiesCreated) {
    if (gateway.identitiesFile) process.stdout.write(`identities saved in ${gateway.identitiesFile}\n`);
    else if (isPostgresUrl(flags.db)) process.stdout.write('identities saved in the database\n');
  }
  const signal = await stopSignal;
  process.stdout.write(`askdock gateway: ${signal}, closing\n`);
  await gateway.close();
  return 0;
}
