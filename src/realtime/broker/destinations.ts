/** Destination prefixes of DESIGN §5 and the spec's WebSocket table. */
export const TOPIC_PREFIX = '/topic/';
export const QUEUE_PREFIX = '/queue/';
export const USER_PREFIX = '/user';
export const REQUEST_PREFIX = '/request/';

const DESTINATION = /^(\/[\w\-.~@%+=]+)+$/;
const DOT_SEGMENT = /\/\.{1,2}(\/|$)/;
const SEGMENT_PATH = /^[\w-]+(\/[\w-]+)*$/;

/** A destination made of non-empty segments of URL-safe characters (not `.` or `..`), at most 256 long. */
export function isValidDestination(destination: string): boolean {
  return destination.length <= 256 && DESTINATION.test(destination) && !DOT_SEGMENT.test(destination);
}

export function isBrokerDestination(destination: string): boolean {
  return destination.startsWith(TOPIC_PREFIX) || destination.startsWith(QUEUE_PREFIX);
}

/** `/user/topic/x` → `/topic/x`; anything else → null. */
export function userTarget(destination: string): string | null {
  if (!destination.startsWith(USER_PREFIX + '/')) return null;
  const target = destination.slice(USER_PREFIX.length);
  return isBrokerDestination(target) ? target : null;
}

/** Slash-separated segments of letters, digits, `_` and `-` (a SHARED endpoint or similar). */
export function isSafePath(path: string): boolean {
  return path.length <= 128 && SEGMENT_PATH.test(path);
}
