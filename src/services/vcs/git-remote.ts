import { ConflictException } from '@nestjs/common';
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import http from 'isomorphic-git/http/node';
import { git, GitWorkdir } from './git-workdir';

/** Moves commits between a working directory and the configured remote. */
export interface GitRemote {
  /** Brings the remote branch into `refs/remotes/origin/<branch>` (no-op when the remote branch does not exist). */
  fetch(workdir: GitWorkdir): Promise<void>;
  /** Fast-forwards the remote branch to the local one; a diverged remote is a 409. */
  push(workdir: GitWorkdir): Promise<void>;
}

/** http(s) URLs go through isomorphic-git's transport; file URLs and paths are bare repositories on this machine. */
export function gitRemoteFor(url: string): GitRemote {
  if (/^https?:\/\//i.test(url)) return new HttpRemote(url);
  return new LocalBareRemote(url.startsWith('file:') ? fileURLToPath(url) : url);
}

class HttpRemote implements GitRemote {
  constructor(private readonly url: string) {}

  /** Fetches through a configured `origin`, which isomorphic-git needs for its remote-tracking refspec. */
  async fetch(workdir: GitWorkdir): Promise<void> {
    await git.addRemote({ fs, dir: workdir.dir, remote: 'origin', url: this.url, force: true });
    await git.fetch({ fs, http, dir: workdir.dir, remote: 'origin', ref: workdir.branch, singleBranch: true });
  }

  async push(workdir: GitWorkdir): Promise<void> {
    const result = await git.push({ fs, http, dir: workdir.dir, url: this.url, ref: workdir.branch });
    if (!result.ok) throw new ConflictException(`Push refused by the remote: ${result.error ?? 'unknown reason'}`);
  }
}

/**
 * isomorphic-git speaks only HTTP to remotes, so a bare repository on disk is served by copying the missing objects
 * between the two object databases and moving refs, which is what `git push`/`git fetch` over `file://` amount to.
 */
class LocalBareRemote implements GitRemote {
  constructor(private readonly gitdir: string) {}

  async fetch(workdir: GitWorkdir): Promise<void> {
    const remoteHead = await this.remoteHead(workdir.branch);
    if (!remoteHead) return;
    await copyObjects(remoteHead, { gitdir: this.gitdir }, { gitdir: `${workdir.dir}/.git` });
    await git.writeRef({
      fs,
      dir: workdir.dir,
      ref: `refs/remotes/origin/${workdir.branch}`,
      value: remoteHead,
      force: true,
    });
  }

  async push(workdir: GitWorkdir): Promise<void> {
    const localHead = await workdir.head();
    if (!localHead) throw new ConflictException('Nothing to push: no commit yet');
    const remoteHead = await this.remoteHead(workdir.branch);
    if (remoteHead && remoteHead !== localHead && !(await isAncestor(workdir, remoteHead, localHead))) {
      throw new ConflictException('The remote branch has commits that are not here: update first');
    }
    await copyObjects(localHead, { gitdir: `${workdir.dir}/.git` }, { gitdir: this.gitdir });
    await git.writeRef({ fs, gitdir: this.gitdir, ref: `refs/heads/${workdir.branch}`, value: localHead, force: true });
  }

  private async remoteHead(branch: string): Promise<string | undefined> {
    await fs.promises.access(this.gitdir).catch(() => {
      throw new ConflictException('The configured VCS remote does not exist');
    });
    return git.resolveRef({ fs, gitdir: this.gitdir, ref: `refs/heads/${branch}` }).catch(() => undefined);
  }
}

/**
 * Whether `oid` descends from `ancestor` (false is the real "not a descendant"). A history that cannot be read
 * (a missing or corrupt object) throws: that is a broken repository, not a conflict.
 */
function isAncestor(workdir: GitWorkdir, ancestor: string, oid: string): Promise<boolean> {
  return git.isDescendent({ fs, dir: workdir.dir, oid, ancestor, depth: -1 });
}

type GitObjectType = 'blob' | 'commit' | 'tree' | 'tag';

interface ObjectStore {
  gitdir: string;
}

/** Copies every object reachable from `oid` that `to` lacks; an object present in `to` implies its history is too. */
async function copyObjects(oid: string, from: ObjectStore, to: ObjectStore): Promise<void> {
  const pending = [oid];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (seen.has(current) || (await hasObject(to, current))) continue;
    seen.add(current);
    const read = await git.readObject({ fs, gitdir: from.gitdir, oid: current, format: 'content' });
    const type = read.type as GitObjectType;
    await git.writeObject({ fs, gitdir: to.gitdir, type, object: read.object, format: 'content' });
    pending.push(...(await children(from, current, type)));
  }
}

async function children(store: ObjectStore, oid: string, type: GitObjectType): Promise<string[]> {
  if (type === 'commit') {
    const { commit } = await git.readCommit({ fs, gitdir: store.gitdir, oid });
    return [commit.tree, ...commit.parent];
  }
  if (type === 'tree') {
    const { tree } = await git.readTree({ fs, gitdir: store.gitdir, oid });
    return tree.filter((entry) => entry.type !== 'commit').map((entry) => entry.oid);
  }
  return [];
}

function hasObject(store: ObjectStore, oid: string): Promise<boolean> {
  return git.readObject({ fs, gitdir: store.gitdir, oid, format: 'deflated' }).then(
    () => true,
    () => false,
  );
}
