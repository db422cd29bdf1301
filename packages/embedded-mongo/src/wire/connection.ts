import type { Socket } from 'node:net';
import { runCommand } from '../commands/dispatch';
import type { CommandContext } from '../commands/context';
import { MongoError } from '../errors';
import { FramingError, MessageFramer } from './framer';
import { encodeReply, parseMessage, type CommandMessage } from './messages';

export type ServerContext = Omit<CommandContext, 'db' | 'connectionId'>;

/**
 * One client connection. Requests are answered strictly in order (a queue of promises), so a slow
 * write never lets a later reply overtake it. Malformed input (bad length, unknown opcode, truncated
 * or corrupt BSON) closes this connection only; command errors are replies, never exceptions.
 */
export class Connection {
  private readonly framer = new MessageFramer();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Socket,
    private readonly connectionId: number,
    private readonly server: ServerContext,
  ) {
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', () => socket.destroy());
  }

  private onData(chunk: Buffer): void {
    let messages: Buffer[];
    try {
      messages = this.framer.push(chunk);
    } catch (error) {
      if (!(error instanceof FramingError)) throw error;
      this.socket.destroy();
      return;
    }
    for (const message of messages) {
      // A failure here is this connection's problem only: never an unhandled rejection.
      this.queue = this.queue.then(() => this.handle(message)).catch(() => {
        this.socket.destroy();
      });
    }
  }

  private async handle(raw: Buffer): Promise<void> {
    if (this.socket.destroyed) return;
    let request: CommandMessage;
    try {
      request = parseMessage(raw);
    } catch {
      this.socket.destroy();
      return;
    }
    const reply = await runCommand(request.command, { ...this.server, connectionId: this.connectionId });
    if (request.noReply || this.socket.destroyed) return;
    this.socket.write(this.encode(request, reply));
  }

  private encode(request: CommandMessage, reply: Record<string, unknown>): Buffer {
    try {
      return encodeReply(request, reply);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return encodeReply(request, new MongoError('BSONObjectTooLarge', message).toReply());
    }
  }
}
