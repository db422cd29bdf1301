import { createApp } from '../../src/bootstrap';
import { benchEnv, listenOnFreePort } from '../bench-server';

/**
 * One instance relaying STOMP through RabbitMQ (`STOMP_RELAY_URL`, `STOMP_RELAY_NAMESPACE` from the caller),
 * open for clients to SEND to `/topic/bench`; prints `{url}` as one JSON line and runs until SIGTERM.
 */
async function main(): Promise<void> {
  const env = benchEnv({
    SEED_DEMO: 'false',
    STOMP_RELAY_URL: process.env.STOMP_RELAY_URL ?? '',
    STOMP_RELAY_NAMESPACE: process.env.STOMP_RELAY_NAMESPACE ?? '',
    STOMP_CLIENT_SEND_PREFIXES: '/topic/bench',
    STOMP_HEARTBEAT: '0,0',
  });
  const url = await listenOnFreePort(await createApp(env));
  process.stdout.write(`${JSON.stringify({ url })}\n`);
}

void main();
