import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';

/** RabbitMQ Web-STOMP and Redis on this machine (the machine starts them; `npm test` enables the STOMP plugins). */
export const RABBITMQ_WEB_STOMP = { host: '127.0.0.1', port: 15674 };
export const REDIS = { host: '127.0.0.1', port: 6379 };

const HOW_TO_START = {
  rabbitmq:
    'RabbitMQ Web-STOMP is not reachable at 127.0.0.1:15674. Start RabbitMQ (guest/guest on 127.0.0.1:5672) and run ' +
    '`rabbitmq-plugins enable rabbitmq_stomp rabbitmq_web_stomp`.',
  redis: 'Redis is not reachable at 127.0.0.1:6379. Start it (e.g. `redis-server --daemonize yes`).',
};

/** @throws Error saying how to start the service when nothing listens on its port */
export async function requireService(name: keyof typeof HOW_TO_START): Promise<void> {
  const { host, port } = name === 'rabbitmq' ? RABBITMQ_WEB_STOMP : REDIS;
  const socket = connect({ host, port }).setTimeout(2000);
  const reachable = await new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => resolve(false));
  });
  socket.destroy();
  if (!reachable) throw new Error(HOW_TO_START[name]);
}

/**
 * Relay settings for instances of one test: RabbitMQ Web-STOMP (through `via`, e.g. a {@link TcpProxy}, when given)
 * and a namespace of their own, so that test runs sharing the broker never see each other's messages.
 */
export function relayEnvironment(namespace = uniqueName(), via?: { port: number }): Record<string, string> {
  const port = via?.port ?? RABBITMQ_WEB_STOMP.port;
  return { STOMP_RELAY_URL: `ws://guest:guest@127.0.0.1:${port}/ws`, STOMP_RELAY_NAMESPACE: namespace };
}

/** Redis settings under a key prefix of this test's own. */
export function redisEnvironment(prefix = `test:${uniqueName()}:`): Record<string, string> {
  return { REDIS_URL: `redis://${REDIS.host}:${REDIS.port}`, REDIS_KEY_PREFIX: prefix };
}

export function uniqueName(): string {
  return `t-${randomUUID().slice(0, 12)}`;
}

/** Repeats `publish` until `received` settles: an upstream SUBSCRIBE may still be on its way. */
export async function publishUntil<T>(publish: () => void, received: Promise<T>): Promise<T> {
  let done = false;
  const settled = received.finally(() => (done = true));
  for (let i = 0; i < 50 && !done; i++) {
    publish();
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  return settled;
}
