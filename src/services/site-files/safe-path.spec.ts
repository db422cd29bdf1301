import { BadRequestException, ConflictException } from '@nestjs/common';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveInside, safeFileName, safeSegments, writeInside } from './safe-path';

describe('safe paths', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'safe-path-'));
    root = join(base, 'root');
    outside = join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  describe('safeSegments', () => {
    it.each(['../x', 'a/../../x', 'a\\..\\x', '/etc/passwd', '\\server\\share', 'C:\\x', 'a\0b'])(
      'should refuse %j',
      (path) => expect(() => safeSegments(path)).toThrow(BadRequestException),
    );

    it.each(['.git/config', 'a/.git/HEAD', '.git', 'blog/.hidden/x', '.htaccess', 'a\\.git\\config', './.git'])(
      'should refuse the hidden segment in %j',
      (path) => expect(() => safeSegments(path)).toThrow('must not contain parts starting with "."'),
    );

    it('should drop empty and dot segments', () => {
      expect(safeSegments('./blog//2024/.')).toEqual(['blog', '2024']);
    });
  });

  describe('safeFileName', () => {
    it.each(['a/b', '..', '', 'x\0.html', '.gitignore'])('should refuse %j', (name) =>
      expect(() => safeFileName(name)).toThrow(BadRequestException),
    );
    it('should accept a plain name', () => expect(safeFileName('index.html')).toBe('index.html'));
  });

  describe('writeInside', () => {
    it('should create directories and write the file', async () => {
      const target = await writeInside(root, 'blog/2024/post.html', '<p>hi</p>');
      expect(target).toBe(join(root, 'blog/2024/post.html'));
      expect(readFileSync(target, 'utf8')).toBe('<p>hi</p>');
    });

    it('should refuse a directory symlink that leaves the root', async () => {
      symlinkSync(outside, join(root, 'escape'));
      await expect(writeInside(root, 'escape/x.txt', 'x')).rejects.toThrow(BadRequestException);
      await expect(resolveInside(root, 'escape')).rejects.toThrow(BadRequestException);
    });

    it('should refuse to write through a file symlink', async () => {
      const victim = join(outside, 'victim.txt');
      writeFileSync(victim, 'original');
      symlinkSync(victim, join(root, 'link.txt'));
      await expect(writeInside(root, 'link.txt', 'overwritten')).rejects.toThrow(BadRequestException);
      expect(readFileSync(victim, 'utf8')).toBe('original');
    });

    it('should allow a symlink that stays inside the root', async () => {
      mkdirSync(join(root, 'real'));
      symlinkSync(join(root, 'real'), join(root, 'alias'));
      await writeInside(root, 'alias/x.txt', 'x');
      expect(readFileSync(join(root, 'real/x.txt'), 'utf8')).toBe('x');
    });

    it('should refuse a name longer than a file system takes with a 400', async () => {
      await expect(writeInside(root, `${'x'.repeat(256)}/a.txt`, 'x')).rejects.toThrow(BadRequestException);
      await expect(writeInside(root, `${'x'.repeat(255)}/a.txt`, 'x')).resolves.toBeDefined();
    });

    it('should answer a file or directory in the way with a 409', async () => {
      await writeInside(root, 'taken/a.txt', 'x');
      await expect(writeInside(root, 'taken', 'x')).rejects.toThrow(ConflictException);
      await expect(writeInside(root, 'taken/a.txt/b.txt', 'x')).rejects.toThrow(ConflictException);
    });
  });
});
