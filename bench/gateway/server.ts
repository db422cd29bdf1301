import { JwtService } from '@nestjs/jwt';
import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { createApp } from '../../src/bootstrap';
import { Role } from '../../src/common/principal';
import { BenchModule } from './bench.module';

/**
 * The app with the bench module, on a free port, data under the given DATA_DIR; prints `{url, token}` as one JSON
 * line and runs until SIGTERM. Started by `run.ts`.
 */
async function main(): Promise<void> {
  const env = {
    NODE_ENV: 'test',
    DATA_DIR: process.env.DATA_DIR ?? '',
    EMBEDDED_DB_IN_MEMORY: 'true',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    JWT_SECRET: randomBytes(32).toString('hex'),
    BEAN_RATE_LIMIT: String(1e9),
  };
  const app = await createApp(env, [BenchModule]);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const token = app.get(JwtService).sign({ sub: 'bench-admin', username: 'bench', role: Role.ADMIN, jti: 'bench' });
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, token })}\n`);
}

void main();
