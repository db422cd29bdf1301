import { BadRequestException, ConflictException } from '@nestjs/common';
import { readdir } from 'node:fs/promises';
import { AppConfig } from '../../config';
import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { LeaseLocks } from '../jobs/lease-locks';
import { SitePaths } from '../site-files/site-paths';
import { GitRemote, gitRemoteFor } from './git-remote';
import { git, GitAuthor, GitWorkdir } from './git-workdir';

/**
 * The current site's content directory under git, synchronised with `VCS_REMOTE_URL`. With several instances the
 * directory is on the volume they share (`DATA_DIR`, see README): an operation holds the site's lease lock in the
 * database, and one that finds another instance holding it is refused with 409.
 */
@Bean('vcsProvider', Role.ADMIN)
export class VcsService {
  /** One git operation at a time per site: isomorphic-git does not lock the index across calls. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly paths: SitePaths,
    private readonly config: AppConfig,
    private readonly locks: LeaseLocks,
  ) {}

  @Exposed()
  init(): Promise<void> {
    return this.run((workdir) => workdir.init());
  }

  @Exposed()
  addAllFiles(): Promise<void> {
    return this.run(async (workdir) => workdir.addAll(), true);
  }

  /**
   * Commits what `addAllFiles` staged. With nothing staged (the index is the branch's commit) it is a no-op: no empty
   * commit is made, and the answer is the same `null` as the spec's `void` gives for a commit.
   */
  @Exposed(['String'])
  async commit(message: string): Promise<void> {
    // git refuses an empty message; said here as the client's error rather than failing inside isomorphic-git (500)
    if (message.trim() === '') throw new BadRequestException('A commit message is required');
    return this.run(async (workdir) => {
      if (await workdir.hasStagedChanges()) await workdir.commit(message, author());
    }, true);
  }

  @Exposed()
  push(): Promise<void> {
    return this.run((workdir) => this.remote().push(workdir), true);
  }

  @Exposed()
  cloneRepository(): Promise<void> {
    return this.run(async (workdir) => {
      const remote = this.remote();
      if (await hasFiles(workdir.dir)) throw new ConflictException('The content directory is not empty: use update');
      await workdir.init();
      await remote.fetch(workdir);
      if (await workdir.remoteHead()) await workdir.mergeRemote(author());
    });
  }

  @Exposed()
  update(): Promise<void> {
    return this.run(async (workdir) => {
      await this.remote().fetch(workdir);
      if (await workdir.remoteHead()) await workdir.mergeRemote(author());
    }, true);
  }

  private remote(): GitRemote {
    if (!this.config.vcsRemoteUrl) throw new ConflictException('No VCS remote is configured (VCS_REMOTE_URL)');
    return gitRemoteFor(this.config.vcsRemoteUrl);
  }

  private run(operation: (workdir: GitWorkdir) => Promise<void>, needsRepository = false): Promise<void> {
    const site = RequestContext.current().site;
    const workdir = new GitWorkdir(this.paths.contentDir(site), this.config.vcsBranch);
    const previous = this.queues.get(site) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const lock = await this.locks.tryAcquire(`vcs:${site}`);
        if (!lock)
          throw new ConflictException(`Another instance is working on the repository of site "${site}"; retry`);
        try {
          if (needsRepository && !(await workdir.isRepository())) {
            throw new ConflictException('The content directory is not a repository: init first');
          }
          await operation(workdir).catch(toHttpError);
        } finally {
          await lock.release();
        }
      });
    this.queues.set(site, next);
    return next;
  }
}

function author(): GitAuthor {
  const username = RequestContext.principal()?.username ?? 'system';
  return { name: username, email: `${username}@users.noreply.invalid` };
}

async function hasFiles(dir: string): Promise<boolean> {
  return readdir(dir).then(
    (entries) => entries.length > 0,
    () => false,
  );
}

/** Git states a client can fix (conflicts, nothing to commit against) are 409s; the rest stays a 500. */
function toHttpError(error: unknown): never {
  const { Errors } = git;
  if (
    error instanceof Errors.MergeConflictError ||
    error instanceof Errors.CheckoutConflictError ||
    error instanceof Errors.MergeNotSupportedError
  ) {
    throw new ConflictException(error.message);
  }
  throw error;
}
