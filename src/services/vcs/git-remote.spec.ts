import { ConflictException } from '@nestjs/common';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gitCli } from '../../../test/support/git-cli';
import { startGitHttpServer } from '../../../test/support/git-http-server';
import { gitRemoteFor } from './git-remote';
import { GitWorkdir } from './git-workdir';

const author = { name: 'editor', email: 'editor@example.invalid' };

describe('git working directory and remotes', () => {
  let base: string;
  let bare: string;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'vcs-'));
    bare = join(base, 'remote.git');
    gitCli(['init', '--bare', '-b', 'main', bare]);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  async function committedWorkdir(name: string, files: Record<string, string>): Promise<GitWorkdir> {
    const workdir = new GitWorkdir(join(base, name), 'main');
    await workdir.init();
    for (const [file, content] of Object.entries(files)) writeFileSync(join(workdir.dir, file), content);
    await workdir.addAll();
    await workdir.commit(`add ${Object.keys(files).join(', ')}`, author);
    return workdir;
  }

  it('should commit all files and push them to the bare repository', async () => {
    const workdir = await committedWorkdir('site', { 'index.html': '<h1>home</h1>', 'about.html': 'about' });
    await gitRemoteFor(bare).push(workdir);
    expect(gitCli(['--git-dir', bare, 'log', '--format=%an %s', 'main'])).toBe('editor add index.html, about.html');
    expect(gitCli(['--git-dir', bare, 'show', 'main:index.html'])).toBe('<h1>home</h1>');
    expect(() => gitCli(['--git-dir', bare, 'fsck', '--strict'])).not.toThrow();
  });

  it('should stage deletions and modifications', async () => {
    const workdir = await committedWorkdir('site', { 'a.txt': 'a', 'b.txt': 'b' });
    unlinkSync(join(workdir.dir, 'a.txt'));
    writeFileSync(join(workdir.dir, 'b.txt'), 'b2');
    await workdir.addAll();
    await workdir.commit('second', author);
    await gitRemoteFor(pathToFileURL(bare).href).push(workdir);
    expect(gitCli(['--git-dir', bare, 'ls-tree', '--name-only', 'main'])).toBe('b.txt');
    expect(gitCli(['--git-dir', bare, 'rev-list', '--count', 'main'])).toBe('2');
  });

  it('should clone and then update from commits pushed by someone else', async () => {
    await gitRemoteFor(bare).push(await committedWorkdir('first', { 'page.html': 'v1' }));
    const clone = new GitWorkdir(join(base, 'clone'), 'main');
    await clone.init();
    await gitRemoteFor(bare).fetch(clone);
    await clone.mergeRemote(author);
    expect(readFileSync(join(clone.dir, 'page.html'), 'utf8')).toBe('v1');

    const other = join(base, 'other');
    gitCli(['clone', '-q', bare, other]);
    writeFileSync(join(other, 'page.html'), 'v2');
    gitCli(['commit', '-qam', 'edit elsewhere'], other);
    gitCli(['push', '-q', 'origin', 'main'], other);

    await gitRemoteFor(bare).fetch(clone);
    await clone.mergeRemote(author);
    expect(readFileSync(join(clone.dir, 'page.html'), 'utf8')).toBe('v2');
  });

  it('should refuse to push over commits it does not have', async () => {
    const mine = await committedWorkdir('mine', { 'x.txt': 'mine' });
    await gitRemoteFor(bare).push(await committedWorkdir('theirs', { 'y.txt': 'theirs' }));
    await expect(gitRemoteFor(bare).push(mine)).rejects.toThrow(ConflictException);
    expect(gitCli(['--git-dir', bare, 'log', '--format=%s', 'main'])).toBe('add y.txt');
  });

  it('should refuse a remote that does not exist', async () => {
    const workdir = await committedWorkdir('site', { 'x.txt': 'x' });
    await expect(gitRemoteFor(join(base, 'missing.git')).push(workdir)).rejects.toThrow(ConflictException);
    expect(existsSync(join(base, 'missing.git'))).toBe(false);
  });

  it('should push to and fetch from an http remote', async () => {
    const server = await startGitHttpServer(base);
    try {
      const remote = gitRemoteFor(`${server.url}/remote.git`);
      await remote.push(await committedWorkdir('site', { 'index.html': 'over http' }));
      expect(gitCli(['--git-dir', bare, 'show', 'main:index.html'])).toBe('over http');

      const clone = new GitWorkdir(join(base, 'clone'), 'main');
      await clone.init();
      await remote.fetch(clone);
      await clone.mergeRemote(author);
      expect(readFileSync(join(clone.dir, 'index.html'), 'utf8')).toBe('over http');
    } finally {
      await server.close();
    }
  });
});
