/** MongoDB's error code for a write refused because the disk is full (the embedded database answers it too). */
export const OUT_OF_DISK_SPACE = 14031;

/** Whether a driver error is a write refused for lack of disk space. */
export function isOutOfDiskSpace(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === OUT_OF_DISK_SPACE;
}
