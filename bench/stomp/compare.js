#!/usr/bin/env node
'use strict';
// Runs the shared STOMP benchmark scripts (shared/bench/stomp: fanout.js, connections.js) against this
// server and RabbitMQ Web-STOMP side by side, alternating targets per configuration, and writes
// results.json and results.md (figures and ratios) to --out.
//
//   node bench/stomp/compare.js [--suite ../shared/bench/stomp] [--out bench/results/stomp]
//                               [--only fanout-1,conns-1000] [--repeats 1] [--no-rabbitmq]
//
// Our server is started from dist/main.js (run `npm run build` first) on a free port with an in-memory
// database and STOMP_CLIENT_SEND_PREFIXES opened for the benchmark topics (clients may not SEND to
// /topic/** otherwise). RabbitMQ is set up and started with the suite's rabbitmq/*.sh scripts.

const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const args = parseArgs(process.argv.slice(2));
const SUITE = path.resolve(args.suite || path.join(ROOT, '../shared/bench/stomp'));
const OUT = path.resolve(args.out || path.join(ROOT, 'bench/results/stomp'));
const REPEATS = Number(args.repeats || 1);

const CONFIGS = [
  { name: 'fanout-1', script: 'fanout.js', args: ['--subs', '1', '--messages', '100000', '--max-seconds', '10'] },
  { name: 'fanout-10', script: 'fanout.js', args: ['--subs', '10', '--messages', '30000', '--max-seconds', '10'] },
  { name: 'fanout-100', script: 'fanout.js', args: ['--subs', '100', '--messages', '3000', '--max-seconds', '10'] },
  { name: 'conns-1000', script: 'connections.js', fresh: true, args: ['--conns', '1000', '--max-seconds', '30'] },
  { name: 'conns-5000', script: 'connections.js', fresh: true, args: ['--conns', '5000', '--max-seconds', '60'] },
];

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    out[key] = argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : 'true';
  }
  return out;
}

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve()));
      socket.on('error', () =>
        Date.now() > deadline ? reject(new Error(`port ${port} not open`)) : setTimeout(attempt, 200),
      );
    };
    attempt();
  });
}

/** This project's server, restartable for a fresh memory baseline. */
class NestTarget {
  constructor(port) {
    this.name = 'nest';
    this.port = port;
    this.url = `ws://127.0.0.1:${port}/ws`;
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stomp-bench-'));
  }

  async start() {
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(this.port),
      HOST: '127.0.0.1',
      DATA_DIR: this.dataDir,
      EMBEDDED_DB_IN_MEMORY: 'true',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      STOMP_CLIENT_SEND_PREFIXES: '/topic/bench,/topic/rt-',
    };
    this.child = spawn(process.execPath, [path.join(ROOT, 'dist/main.js')], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForPort(this.port, 60000);
    this.pid = this.child.pid;
  }

  async stop() {
    if (!this.child) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
    this.child = undefined;
  }

  async restart() {
    await this.stop();
    await this.start();
  }

  async dispose() {
    await this.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** RabbitMQ 3.10 Web-STOMP on 127.0.0.1:15674, through the suite's scripts. */
class RabbitTarget {
  constructor() {
    this.name = 'rabbitmq';
    this.url = 'ws://127.0.0.1:15674/ws';
  }

  sh(script) {
    execFileSync('sh', [path.join(SUITE, 'rabbitmq', script)], { stdio: ['ignore', 'ignore', 'inherit'] });
  }

  async start() {
    this.sh('setup.sh');
    this.sh('start.sh');
    this.pid = 0; // the scripts find the listener of port 15674
  }

  async restart() {
    this.sh('restart.sh');
  }

  async dispose() {
    this.sh('stop.sh');
  }
}

function runScript(target, config) {
  const argv = [
    path.join(SUITE, config.script),
    '--url',
    target.url,
    '--prefix',
    '/topic/',
    '--json',
    '--tag',
    target.name,
    ...config.args,
  ];
  if (target.pid) argv.push('--server-pid', String(target.pid));
  // The suite's own dependencies (@stomp/stompjs, ws) resolve from this project's node_modules.
  const env = { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') };
  const output = execFileSync(process.execPath, argv, { encoding: 'utf8', env, timeout: 180000, maxBuffer: 1 << 24 });
  return JSON.parse(output.trim().split('\n').pop());
}

function summarize(result) {
  if (result.bench === 'fanout') {
    return {
      deliveredPerSec: result.deliveredPerSec,
      p50Ms: result.latencyMs.p50,
      p99Ms: result.latencyMs.p99,
      missing: result.missing,
      serverCpuPct: result.cpu.serverCpuPct,
      otherCpuPct: result.cpu.otherCpuPct,
    };
  }
  return {
    established: result.established,
    establishSeconds: result.establishSeconds,
    serverKbPerConn: result.serverKbPerConn,
    broadcastAllMs: result.broadcastAllMsMedian,
    otherCpuPct: result.cpuEstablish && result.cpuEstablish.otherCpuPct,
  };
}

function median(values) {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null;
}

function table(rows, targets) {
  const ratio = (a, b) => (typeof a === 'number' && typeof b === 'number' && b !== 0 ? (a / b).toFixed(2) : 'n/a');
  const lines = [];
  lines.push(`| configuration | metric | ${targets.join(' | ')} | ratio nest/${targets[1] || '-'} |`);
  lines.push(`|---|---|${targets.map(() => '---').join('|')}|---|`);
  for (const [config, byTarget] of Object.entries(rows)) {
    const metrics = Object.keys(byTarget[targets[0]] || {});
    for (const metric of metrics) {
      const values = targets.map((t) => (byTarget[t] ? byTarget[t][metric] : null));
      lines.push(
        `| ${config} | ${metric} | ${values.map((v) => (v === null || v === undefined ? 'n/a' : v)).join(' | ')} | ${ratio(values[0], values[1])} |`,
      );
    }
  }
  return lines.join('\n');
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'dist/main.js'))) throw new Error('build first: npm run build');
  const targets = [new NestTarget(await freePort())];
  if (args['no-rabbitmq'] !== 'true') targets.push(new RabbitTarget());
  const selected = args.only ? CONFIGS.filter((c) => args.only.split(',').includes(c.name)) : CONFIGS;
  const raw = [];
  const rows = {};
  try {
    for (const target of targets) await target.start();
    for (const config of selected) {
      rows[config.name] = {};
      const perTarget = new Map(targets.map((t) => [t.name, []]));
      for (let i = 0; i < REPEATS; i++) {
        for (const target of targets) {
          if (config.fresh) await target.restart();
          const result = runScript(target, config);
          raw.push({ config: config.name, target: target.name, repeat: i, result });
          perTarget.get(target.name).push(summarize(result));
          console.error(`${config.name} ${target.name} #${i + 1}: ${JSON.stringify(summarize(result))}`);
        }
      }
      for (const [name, runs] of perTarget) {
        rows[config.name][name] = Object.fromEntries(
          Object.keys(runs[0]).map((k) => [k, median(runs.map((r) => r[k]))]),
        );
      }
    }
  } finally {
    for (const target of targets) await target.dispose().catch(() => undefined);
  }
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(
    path.join(OUT, 'results.json'),
    JSON.stringify({ when: new Date().toISOString(), cores: os.cpus().length, raw }, null, 2),
  );
  const markdown = `Medians of ${REPEATS} run(s), ${os.cpus().length} cores, ${new Date().toISOString()}\n\n${table(
    rows,
    targets.map((t) => t.name),
  )}\n`;
  fs.writeFileSync(path.join(OUT, 'results.md'), markdown);
  process.stdout.write(markdown);
}

main().catch((error) => {
  console.error(error && error.stack ? error.stack : error);
  process.exit(1);
});
