/**
 * The open STOMP sessions of this instance, as other modules may act on them. Bound to the STOMP protocol handler in
 * `RealtimeModule`.
 */
export abstract class LiveSessions {
  /**
   * Verifies the tokens of every open session of the user again now, instead of at the next `STOMP_REVERIFY_MS` tick:
   * for a change that must end them at once (a disabled account). A session whose token is refused gets `ERROR`
   * "Token revoked" and is closed. Sessions on other instances are checked at their next tick.
   */
  abstract reverifyUser(userId: string): void;
}
