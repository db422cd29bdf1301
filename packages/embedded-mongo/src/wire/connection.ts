import type { Socket } from 'node:net';
import { runCommand } from '../commands/dispatch';
import type { CommandContext } from '../commands/context';
import { ErrorCodes, MongoError } from '../errors';
import { describeError, log } from '../log';
import { MessageFramer } from './framer';
import { encodeReply, parseMessage, unparsedRequest, type CommandMessage } from './messages';

export type ServerContext = Omit<CommandContext, 'db' | 'connectionId'>;

/**
 * One client connection. Requests are answered strictly in order (a queue of promises), so a slow
 * write never lets a later reply overtake it. A message that is framed but cannot be parsed (corrupt
 * BSON, bad sections) is answered with a `ProtocolError` reply, as the stream is still in step; an
 * invalid length prefix or an unknown opcode leaves nothing to answer, so the connection is closed.
 * Every close for bad input and every unexpected failure is logged with the connection id.
 */
export class Connection {
  private readonly framer = new MessageFramer();
  private queue: Promise<void> = Promise.resolve();
  private readonly source: string;

  constructor(
    private readonly socket: Socket,
    private readonly connectionId: number,
    private readonly server: ServerContext,
  ) {
    this.source = `conn${connectionId}`;
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A client that went away (reset, broken pipe) is no news for an operator.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') {
        log({ level: 'warn', source: this.source, message: `socket error, closing: ${describeError(error)}` });
      }
      socket.destroy();
    });
  }

  private onData(chunk: Buffer): void {
    if (this.socket.destroyed) return;
    const { messages, error } = this.framer.push(chunk);
    for (const message of messages) {
      // A failure here is this connection's problem only: never an unhandled rejection.
      this.queue = this.queue
        .then(() => this.handle(message))
        .catch((failure: unknown) => this.close(`failed to answer a request (${describeError(failure)})`, 'error'));
    }
    // The messages framed before a bad length prefix are answered first.
    if (error) this.queue = this.queue.then(() => this.close(`unreadable message framing (${error.message})`));
  }

  private async handle(raw: Buffer): Promise<void> {
    if (this.socket.destroyed) return;
    let request: CommandMessage;
    try {
      request = parseMessage(raw);
    } catch (error) {
      this.answerUnparsed(raw, describeError(error));
      return;
    }
    const reply = await runCommand(request.command, { ...this.server, connectionId: this.connectionId });
    if (reply.code === ErrorCodes.InternalError) {
      log({ level: 'error', source: this.source, message: `${commandName(request)} failed: ${String(reply.errmsg)}` });
    }
    if (request.noReply || this.socket.destroyed) return;
    this.socket.write(this.encode(request, reply));
  }

  /** A framed message that does not parse: a `ProtocolError` reply when its opcode says how to answer. */
  private answerUnparsed(raw: Buffer, reason: string): void {
    const request = unparsedRequest(raw);
    if (!request) {
      this.close(`unsupported message (${reason})`);
      return;
    }
    log({ level: 'warn', source: this.source, message: `invalid message answered with an error: ${reason}` });
    if (request.noReply) return;
    this.socket.write(encodeReply(request, new MongoError('ProtocolError', `invalid message: ${reason}`).toReply()));
  }

  private close(reason: string, level: 'warn' | 'error' = 'warn'): void {
    if (this.socket.destroyed) return;
    log({ level, source: this.source, message: `closing connection: ${reason}` });
    this.socket.destroy();
  }

  private encode(request: CommandMessage, reply: Record<string, unknown>): Buffer {
    try {
      return encodeReply(request, reply);
    } catch (error) {
      return encodeReply(request, new MongoError('BSONObjectTooLarge', describeError(error)).toReply());
    }
  }
}

function commandName(request: CommandMessage): string {
  return `command ${Object.keys(request.command)[0] ?? '(empty)'}`;
}
