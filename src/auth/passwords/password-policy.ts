/** Length bounds of a new password; the upper bound keeps hashing cost bounded. */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
