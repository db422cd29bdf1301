import { getConnectionToken } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Role } from '../../src/common/principal';
import { LeaseLocks } from '../../src/services/jobs/lease-locks';
import { gitCli as git } from '../support/git-cli';
import { startTestApp, TestApp } from '../support/test-app';

describe('vcsProvider (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let base: string;
  let bare: string;

  const vcs = (fn: string, args: unknown[] = [], site = 'default') =>
    t.callBean('vcsProvider', fn, args, { token: admin, site });
  const save = (name: string, content: string) =>
    t.callBean('fileManagerServiceMock', 'saveContentToFile', [name, 'pages', content], { token: admin }).expect(200);

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'vcs-e2e-'));
    bare = join(base, 'content.git');
    git(['init', '--bare', '-b', 'main', bare]);
    t = await startTestApp({ env: { VCS_REMOTE_URL: pathToFileURL(bare).href } });
    ({ token: admin } = await t.createUser({ username: 'editor', role: Role.ADMIN }));
  });
  afterAll(async () => {
    await t.stop();
    rmSync(base, { recursive: true, force: true });
  });

  it('should refuse work while another instance holds the site repository lock', async () => {
    const held = (await t.app.get(LeaseLocks).tryAcquire('vcs:default'))!;
    try {
      const res = await vcs('init').expect(409);
      expect(res.body).toMatchObject({
        status: 409,
        error: 'Conflict',
        message: expect.stringContaining('Another instance'),
      });
    } finally {
      await held.release();
    }
  });

  it('should refuse work on a directory that is not a repository yet', async () => {
    await vcs('commit', ['too early']).expect(409);
    await vcs('addAllFiles').expect(409);
  });

  it('should init, add, commit and push to the bare repository', async () => {
    await vcs('init').expect(200);
    await save('home.html', '<h1>Home</h1>');
    await vcs('addAllFiles').expect(200);
    await vcs('commit', ['Add home page']).expect(200);
    await vcs('push').expect(200);
    expect(git(['--git-dir', bare, 'log', '--format=%an|%s', 'main'])).toBe('editor|Add home page');
    expect(git(['--git-dir', bare, 'show', 'main:pages/home.html'])).toBe('<h1>Home</h1>');
  });

  it('should update from commits pushed elsewhere', async () => {
    const other = join(base, 'other');
    git(['clone', '-q', bare, other]);
    writeFileSync(join(other, 'pages', 'home.html'), '<h1>Home v2</h1>');
    git(['commit', '-qam', 'Edit elsewhere'], other);
    git(['push', '-q', 'origin', 'main'], other);
    await vcs('update').expect(200);
    expect(readFileSync(join(t.config.dataDir, 'sites/default/content/pages/home.html'), 'utf8')).toBe(
      '<h1>Home v2</h1>',
    );
  });

  it('should refuse a push over commits it does not have, until updated', async () => {
    const other = join(base, 'other');
    writeFileSync(join(other, 'other.txt'), 'x');
    git(['add', '.'], other);
    git(['commit', '-qm', 'Another edit elsewhere'], other);
    git(['push', '-q', 'origin', 'main'], other);
    await save('about.html', 'about');
    await vcs('addAllFiles').expect(200);
    await vcs('commit', ['Add about']).expect(200);
    await vcs('push').expect(409);
    await vcs('update').expect(200);
    await vcs('push').expect(200);
    expect(git(['--git-dir', bare, 'log', '-1', '--format=%s', 'main'])).toMatch(/^Merge/);
    expect(git(['--git-dir', bare, 'ls-tree', '-r', '--name-only', 'main']).split('\n')).toEqual([
      'other.txt',
      'pages/about.html',
      'pages/home.html',
    ]);
  });

  it('should clone into the empty content directory of another site', async () => {
    await t.app
      .get<Connection>(getConnectionToken())
      .collection('sites')
      .insertOne({ _id: 'mirror', name: 'Mirror' } as never);
    await vcs('cloneRepository', [], 'mirror').expect(200);
    expect(readFileSync(join(t.config.dataDir, 'sites/mirror/content/pages/about.html'), 'utf8')).toBe('about');
    await vcs('cloneRepository', [], 'mirror').expect(409);
  });

  it('should require ADMIN and the right arguments', async () => {
    await t.callBean('vcsProvider', 'push', []).expect(401);
    await t.callBean('vcsProvider', 'push', [], { token: t.tokenFor(Role.USER) }).expect(403);
    await vcs('commit').expect(400);
  });

  // Last: it breaks the site's local repository on purpose.
  it('should answer a push over a history it cannot read with a 500, not a conflict', async () => {
    const workdir = join(t.config.dataDir, 'sites/default/content');
    const other = join(base, 'other');
    git(['pull', '-q', 'origin', 'main'], other);
    writeFileSync(join(other, 'third.txt'), 'x');
    git(['add', '.'], other);
    git(['commit', '-qm', 'Third edit elsewhere'], other);
    git(['push', '-q', 'origin', 'main'], other);
    const parent = git(['rev-parse', 'HEAD'], workdir);
    await save('contact.html', 'contact');
    await vcs('addAllFiles').expect(200);
    await vcs('commit', ['Add contact']).expect(200);
    rmSync(join(workdir, '.git', 'objects', parent.slice(0, 2), parent.slice(2)));

    const response = await vcs('push').expect(500);
    expect(response.body).toEqual({
      code: 'INTERNAL_ERROR',
      error: 'Internal Server Error',
      message: 'Internal server error',
      status: 500,
      path: '/api/v1/bean/request',
      timestamp: expect.any(String),
      requestId: response.headers['x-request-id'],
    });
  });
});

describe('vcsProvider without a configured remote (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.stop());

  it('should commit locally but answer 409 to push, clone and update', async () => {
    const token = t.tokenFor(Role.ADMIN);
    await t.callBean('vcsProvider', 'init', [], { token }).expect(200);
    await t.callBean('vcsProvider', 'commit', ['Empty start'], { token }).expect(200);
    for (const fn of ['push', 'update', 'cloneRepository']) {
      const res = await t.callBean('vcsProvider', fn, [], { token }).expect(409);
      expect(res.body.message).toMatch(/VCS_REMOTE_URL|not empty/);
    }
  });

  it('should make no commit when nothing is staged, also with unstaged edits, and one once they are added', async () => {
    const token = t.tokenFor(Role.ADMIN);
    const vcs = (fn: string, args: unknown[] = []) => t.callBean('vcsProvider', fn, args, { token }).expect(200);
    const save = (content: string) =>
      t.callBean('fileManagerServiceMock', 'saveContentToFile', ['home.html', 'pages', content], { token }).expect(200);
    const workdir = join(t.config.dataDir, 'sites/default/content');
    const commits = () => Number(git(['rev-list', '--count', 'HEAD'], workdir));
    await vcs('init');
    await vcs('commit', ['Nothing yet']);
    expect(() => git(['rev-parse', '--verify', '-q', 'HEAD'], workdir)).toThrow();

    await save('<h1>Home</h1>');
    await vcs('addAllFiles');
    await vcs('commit', ['Add home']);
    expect(commits()).toBe(1);
    const head = git(['rev-parse', 'HEAD'], workdir);
    await vcs('addAllFiles');
    expect((await vcs('commit', ['Nothing changed'])).body).toBeNull();
    expect(commits()).toBe(1);
    expect(git(['rev-parse', 'HEAD'], workdir)).toBe(head);

    await save('<h1>Home, edited</h1>');
    await vcs('commit', ['Edited but not added']);
    expect(commits()).toBe(1);
    await save('<h1>Home</h1>');
    await vcs('addAllFiles');
    await vcs('commit', ['Edited back before adding']);
    expect(commits()).toBe(1);

    await save('<h1>Home v2</h1>');
    await vcs('addAllFiles');
    await vcs('commit', ['Edit home']);
    expect(commits()).toBe(2);
    expect(git(['log', '-1', '--format=%s'], workdir)).toBe('Edit home');
    expect(git(['status', '--porcelain'], workdir)).toBe('');
  });
});
