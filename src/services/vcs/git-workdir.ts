import * as fs from 'node:fs';
import type * as IsomorphicGit from 'isomorphic-git';
import { lazyModule } from '../../common/lazy-module';

/** isomorphic-git, loaded by the first git operation. */
export const git = lazyModule(() => require('isomorphic-git') as typeof IsomorphicGit);

export interface GitAuthor {
  name: string;
  email: string;
}

/** Git operations on one working directory (the site's content directory). */
export class GitWorkdir {
  constructor(
    readonly dir: string,
    readonly branch: string,
  ) {}

  async isRepository(): Promise<boolean> {
    return fs.promises.access(`${this.dir}/.git`).then(
      () => true,
      () => false,
    );
  }

  async init(): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    await git.init({ fs, dir: this.dir, defaultBranch: this.branch });
  }

  /** Stages every new, changed and deleted file. */
  async addAll(): Promise<void> {
    for (const [filepath, , workdir, stage] of await git.statusMatrix({ fs, dir: this.dir })) {
      if (workdir === 0 && stage !== 0) await git.remove({ fs, dir: this.dir, filepath });
      else if (workdir === 2 && stage !== 2) await git.add({ fs, dir: this.dir, filepath });
    }
  }

  commit(message: string, author: GitAuthor): Promise<string> {
    return git.commit({ fs, dir: this.dir, message, author });
  }

  /**
   * Whether the index (what a commit records) differs from the branch's commit: a file added, removed or changed
   * since. statusMatrix rows are `[file, head, workdir, stage]`; the staged file equals HEAD's when both are absent,
   * when it is marked identical to HEAD (1), or identical to a working copy that is itself unchanged (2 and 1).
   */
  async hasStagedChanges(): Promise<boolean> {
    const rows = await git.statusMatrix({ fs, dir: this.dir });
    return rows.some(([, head, workdir, stage]) => {
      if (head === 0) return stage !== 0;
      return !(stage === 1 || (stage === 2 && workdir === 1));
    });
  }

  /** The branch's commit, or undefined on an empty repository. */
  head(): Promise<string | undefined> {
    return git.resolveRef({ fs, dir: this.dir, ref: `refs/heads/${this.branch}` }).catch(() => undefined);
  }

  /** The fetched remote branch's commit, or undefined when the remote has none. */
  remoteHead(): Promise<string | undefined> {
    return git.resolveRef({ fs, dir: this.dir, ref: `refs/remotes/origin/${this.branch}` }).catch(() => undefined);
  }

  /** Merges the fetched remote branch (fast-forward when possible) and checks it out; local edits are never overwritten. */
  async mergeRemote(author: GitAuthor): Promise<void> {
    const theirs = `refs/remotes/origin/${this.branch}`;
    if (!(await this.head())) {
      const value = await git.resolveRef({ fs, dir: this.dir, ref: theirs });
      await git.writeRef({ fs, dir: this.dir, ref: `refs/heads/${this.branch}`, value });
    } else {
      await git.merge({ fs, dir: this.dir, ours: this.branch, theirs, author, abortOnConflict: true });
    }
    await git.checkout({ fs, dir: this.dir, ref: this.branch });
  }
}
