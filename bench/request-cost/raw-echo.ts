import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { announce } from './announce';

/** The floor: `node:http` echoing a JSON body, no framework. Started by `run.ts`. */
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
    const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) };
    response.writeHead(200, headers);
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => announce({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
