#!/usr/bin/env node --expose-gc
'use strict';
// Memory the server holds per idle STOMP connection, measured inside the server process after a full GC
// (heap + external + array buffers), which an RSS delta cannot show: V8 reuses heap freed after start-up.
//
//   node --expose-gc bench/stomp/idle-memory.js [--conns 5000]
//
// The server is this application (dist/bootstrap.js, `npm run build` first) with an in-memory database; the
// connections come from a child process, each CONNECT + SUBSCRIBE /topic/bench-idle (with receipt).

const { fork } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const conns = Number(process.argv[process.argv.indexOf('--conns') + 1] || 5000);

function jsMemory() {
  global.gc();
  global.gc();
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
  return { js: heapUsed + external + arrayBuffers, rss };
}

async function openClients(url) {
  const child = fork(__filename, ['--client', url, String(conns)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`client exited with ${code}`)));
  });
  return child;
}

async function server() {
  if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stomp-mem-'));
  const { createApp } = require(path.join(ROOT, 'dist/bootstrap.js'));
  const app = await createApp({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    EMBEDDED_DB_IN_MEMORY: 'true',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
  });
  await app.listen(0, '127.0.0.1');
  const url = `ws://127.0.0.1:${app.getHttpServer().address().port}/ws`;
  const warm = await openClients(url); // first connections pay for lazily compiled code and pools
  warm.kill();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = jsMemory();
  const clients = await openClients(url);
  const after = jsMemory();
  clients.kill();
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const perConn = (key) => Math.round(((after[key] - before[key]) / conns / 1024) * 10) / 10;
  console.log(JSON.stringify({ conns, jsKbPerConn: perConn('js'), rssKbPerConn: perConn('rss') }));
}

async function client(url, count) {
  const WebSocket = require('ws');
  const open = () =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url, ['v12.stomp']);
      ws.on('error', reject);
      ws.on('open', () =>
        ws.send(
          'CONNECT\naccept-version:1.2\nheart-beat:10000,10000\n\n\0SUBSCRIBE\nid:sub-0\ndestination:/topic/bench-idle\nreceipt:r\n\n\0',
        ),
      );
      ws.on('message', (data) => String(data).startsWith('RECEIPT') && resolve(ws));
    });
  const sockets = [];
  for (let i = 0; i < count; i += 100)
    sockets.push(...(await Promise.all(Array.from({ length: Math.min(100, count - i) }, open))));
  setInterval(() => sockets.forEach((ws) => ws.send('\n')), 5000);
  process.send('ready');
}

const main = process.argv[2] === '--client' ? client(process.argv[3], Number(process.argv[4])) : server();
main.catch((error) => {
  console.error(error);
  process.exit(1);
});
