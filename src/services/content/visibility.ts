/** Conditions of a page visitors may see: published, not an e-mail template, and released unless dated ahead. */
export function livePageFilter(now = new Date()): Record<string, unknown> {
  return {
    published: true,
    emailTemplate: { $ne: true },
    $or: [{ releaseDate: { $exists: false } }, { releaseDate: null }, { releaseDate: { $lte: now } }],
  };
}

/** Whether something with this release date is out (no date: at once). */
export function isReleased(releaseDate: Date | null | undefined, now = new Date()): boolean {
  return !releaseDate || releaseDate <= now;
}
