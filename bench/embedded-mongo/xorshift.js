'use strict';

/** A fixed pseudo-random sequence in [0, 1) (xorshift), so that every build in a bench gets the same inputs. */
function xorshift(seed) {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

module.exports = { xorshift };
