import { EmbeddedMongoServer } from '@ccb/embedded-mongo';
import { randomBytes } from 'node:crypto';
import { redisEnvironment, relayEnvironment, requireService, uniqueName } from './shared-services';
import { startTestApp, TestApp, TestAppOptions } from './test-app';

export interface Cluster {
  /** The instances, in start order; each a whole app with its own HTTP and STOMP endpoints. */
  instances: TestApp[];
  /** The one database every instance uses (`MONGODB_URI`). */
  db: EmbeddedMongoServer;
  /** The environment every instance shares: database, JWT secret, relay and Redis settings. */
  env: Record<string, string>;
  /** Starts one more instance with the shared environment (plus `env`), e.g. after stopping one. */
  addInstance(env?: Record<string, string>): Promise<TestApp>;
  stop(): Promise<void>;
}

export interface ClusterOptions extends TestAppOptions {
  /** How many instances; 2 by default. */
  size?: number;
}

/**
 * Several instances of the app as a deployment runs them: one database (an embedded server reached through
 * `MONGODB_URI`), one JWT secret, STOMP relayed through the machine's RabbitMQ, counters in its Redis. Relay topics
 * and Redis keys are in a namespace of this cluster's own, so that concurrent test runs do not meet.
 * @throws Error saying how to start RabbitMQ or Redis when one is not reachable
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  await Promise.all([requireService('rabbitmq'), requireService('redis')]);
  const db = await EmbeddedMongoServer.start({ port: 0, host: '127.0.0.1', dbPath: undefined });
  const name = uniqueName();
  const env = {
    MONGODB_URI: `${db.uri.replace(/\/$/, '')}/${name}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...relayEnvironment(name),
    ...redisEnvironment(`test:${name}:`),
    ...options.env,
  };
  const instances: TestApp[] = [];
  const addInstance = async (extra: Record<string, string> = {}) => {
    const instance = await startTestApp({ ...options, env: { ...env, ...extra } });
    instances.push(instance);
    return instance;
  };
  try {
    // One after the other: the first creates the database's indexes and the harness's users, the others find them.
    for (let i = 0; i < (options.size ?? 2); i++) await addInstance();
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.stop()));
    await db.stop();
    throw error;
  }
  return {
    instances,
    db,
    env,
    addInstance,
    stop: async () => {
      await Promise.all(instances.map((instance) => instance.stop()));
      await db.stop();
    },
  };
}
