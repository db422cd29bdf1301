import { BadRequestException } from '@nestjs/common';
import { Types } from 'mongoose';

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** Parses a client-given id; anything but 24 hex digits is a 400 naming the argument. */
export function toObjectId(value: string, name: string): Types.ObjectId {
  if (typeof value !== 'string' || !OBJECT_ID.test(value)) throw new BadRequestException(`${name} must be a 24-character hexadecimal id`);
  return new Types.ObjectId(value);
}
