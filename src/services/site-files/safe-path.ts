import { BadRequestException, ConflictException } from '@nestjs/common';
import { constants } from 'node:fs';
import { mkdir, open, realpath } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';

const WINDOWS_DRIVE = /^[A-Za-z]:/;
/** File systems refuse longer names (ENAMETOOLONG): refused here as the client's error. */
const MAX_SEGMENT_BYTES = 255;
const MAX_SEGMENTS = 32;
/** A file or directory in the way of a write: the client's path clashes with what is there. */
const IN_THE_WAY = new Set(['EEXIST', 'EISDIR', 'ENOTDIR']);

/**
 * Splits a client-given relative path into safe segments: no NUL bytes, not absolute, no `..`, no hidden segment
 * (starting with `.`: the content's `.git` folder is version control's own, and a write there could break it for
 * good), at most 32 segments of at most 255 bytes each. Empty and `.` segments are dropped.
 * @throws BadRequestException naming `what`
 */
export function safeSegments(relative: string, what = 'path'): string[] {
  if (relative.includes('\0')) throw new BadRequestException(`${what} must not contain NUL bytes`);
  if (/^[/\\]/.test(relative) || WINDOWS_DRIVE.test(relative))
    throw new BadRequestException(`${what} must be relative`);
  const segments = relative.split(/[/\\]+/).filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new BadRequestException(`${what} must not contain ".."`);
  if (segments.some((segment) => segment.startsWith('.'))) {
    throw new BadRequestException(`${what} must not contain parts starting with "." (such as .git)`);
  }
  if (segments.length > MAX_SEGMENTS || segments.some((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES)) {
    const limit = `at most ${MAX_SEGMENTS} parts of at most ${MAX_SEGMENT_BYTES} bytes each`;
    throw new BadRequestException(`${what} must have ${limit}`);
  }
  return segments;
}

/** A single file name: safe, and without any directory part. */
export function safeFileName(name: string): string {
  const segments = safeSegments(name, 'name');
  if (segments.length !== 1 || /[/\\]/.test(name))
    throw new BadRequestException('name must be a file name without directories');
  return segments[0];
}

/**
 * The absolute path of `relative` under `root`, refusing anything that leaves `root`, through `..` or through a
 * symbolic link anywhere on the way.
 */
export async function resolveInside(root: string, relative: string): Promise<string> {
  const target = join(root, ...safeSegments(relative));
  await assertRealPathInside(root, target);
  return target;
}

/**
 * Writes `content` at `relative` under `root`, creating directories; never follows a link out of `root`.
 * @throws ConflictException when a file stands where a directory must be, or a directory where the file goes
 */
export async function writeInside(root: string, relative: string, content: string | Buffer): Promise<string> {
  return write(root, relative, content).catch((error: NodeJS.ErrnoException) => {
    if (IN_THE_WAY.has(error.code ?? ''))
      throw new ConflictException(`${relative} clashes with an existing file or directory`);
    throw error;
  });
}

async function write(root: string, relative: string, content: string | Buffer): Promise<string> {
  const target = await resolveInside(root, relative);
  await mkdir(dirname(target), { recursive: true });
  await assertRealPathInside(root, dirname(target));
  const file = await open(
    target,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o644,
  ).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') throw new BadRequestException('path must not be a symbolic link');
    throw error;
  });
  try {
    await file.writeFile(content);
  } finally {
    await file.close();
  }
  return target;
}

async function assertRealPathInside(root: string, target: string): Promise<void> {
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  const realTarget = await realPathOfDeepestExisting(target);
  if (realTarget !== realRoot && !realTarget.startsWith(realRoot + sep)) {
    throw new BadRequestException('path leads outside the site directory');
  }
}

async function realPathOfDeepestExisting(path: string): Promise<string> {
  for (let current = path; ; current = dirname(current)) {
    try {
      return await realpath(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(current) === current) throw error;
    }
  }
}
