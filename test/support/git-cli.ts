import { execFileSync } from 'node:child_process';

/** Runs the git command-line client (as a second, independent implementation next to isomorphic-git). */
export const gitCli = (args: string[], cwd?: string): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'cli',
      GIT_AUTHOR_EMAIL: 'cli@x',
      GIT_COMMITTER_NAME: 'cli',
      GIT_COMMITTER_EMAIL: 'cli@x',
    },
  }).trim();
