import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How many nice levels the server's thread runs below its caller. Where cores are scarce, a long query should not
 * starve the caller's event loop (HTTP, STOMP): at +10 the scheduler gives the caller's threads about nine tenths
 * of the CPU they compete for with the server's thread (weights 1024 and 110 per Linux's nice table).
 */
export const PRIORITY_STEPS = 10;

/**
 * Lowers the calling thread's CPU priority by `steps` nice levels. On Linux each thread has its own nice value,
 * addressed by its thread id (`/proc/thread-self` names it); elsewhere this does nothing, since a process-wide
 * change would slow the app as well.
 */
export function lowerThreadPriority(steps: number): void {
  let threadId: number;
  try {
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return;
  }
  setPriority(threadId, Math.min(19, getPriority(threadId) + steps));
}
