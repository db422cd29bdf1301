import type { Engine } from '../storage/engine';
import type { Doc } from '../types';
import type { CursorRegistry } from './cursor-registry';
import type { SessionRegistry } from './session-registry';

/** What a command handler can reach: the engine, server-wide cursors/sessions and its connection. */
export interface CommandContext {
  engine: Engine;
  cursors: CursorRegistry;
  sessions: SessionRegistry;
  connectionId: number;
  /** The `$db` of the command. */
  db: string;
}

export type CommandHandler = (command: Doc, context: CommandContext) => Doc | Promise<Doc>;
export type CommandTable = Record<string, CommandHandler>;
