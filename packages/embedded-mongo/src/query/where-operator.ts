import { MongoError } from '../errors';

/**
 * `$where` runs JavaScript on the server. This server runs none: it answers as a MongoDB 7 started with
 * server-side JavaScript disabled (`security.javascriptEnabled: false`) does, for a string and a function alike,
 * when the filter is parsed. (mingo's own `$where` would call a function given to it.)
 */
export const $where = (): never => {
  throw new MongoError('Location6108304', 'no globalScriptEngine in $where parsing');
};
