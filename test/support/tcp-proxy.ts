import { createServer, connect, Server, Socket } from 'node:net';
import { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of a service, to cut one client's connection as a network failure would (both ends see it
 * closed, new connections are refused until `restore`) without disturbing anyone else using the service.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server: Server;
  port = 0;

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = this.createServer();
  }

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await proxy.listen(0);
    return proxy;
  }

  /** Closes every connection through the proxy and refuses new ones. */
  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  /** Accepts connections again, on the same port. */
  async restore(): Promise<void> {
    this.server = this.createServer();
    await this.listen(this.port);
  }

  async stop(): Promise<void> {
    if (this.server.listening) await this.cut();
  }

  private createServer(): Server {
    return createServer((client) => {
      const upstream = connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined); // the other end is closed with it
        socket.on('close', () => (this.sockets.delete(socket), client.destroy(), upstream.destroy()));
      }
      client.pipe(upstream).pipe(client);
    });
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }
}
