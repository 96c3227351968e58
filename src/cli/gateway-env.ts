import { createLogger } from '../gateway/infra/logger.ts';

/**
 * What the environment says about running a gateway: the gateway reads no variable itself. Logs go to stderr,
 * readable when it is a terminal (stdout stays the command's own); `ASKDOCK_CHECK_FRAMES=1` checks every frame sent,
 * `ASKDOCK_SYNC=FULL` fsyncs every commit, `ASKDOCK_LOG_LEVEL` picks the level (default info).
 */
export function gatewayEnvironment(env: NodeJS.ProcessEnv = process.env, stderr: { isTTY?: boolean } = process.stderr) {
  const level = env.ASKDOCK_LOG_LEVEL;
  const levels = ['debug', 'info', 'warn', 'error', 'silent'] as const;
  const logLevel = levels.find((l) => l === level) ?? 'info';
  return {
    checkFrames: env.ASKDOCK_CHECK_FRAMES === '1',
    syncFull: env.ASKDOCK_SYNC === 'FULL',
    logLevel,
    log: createLogger({ pretty: stderr.isTTY === true, level: logLevel }),
  };
}
