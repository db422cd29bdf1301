import { BadRequestException } from '@nestjs/common';
import { Types } from 'mongoose';

/** An ObjectId in its text form: 24 hexadecimal digits, either case. */
export const OBJECT_ID_HEX = /^[0-9a-f]{24}$/i;

export function isObjectIdHex(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID_HEX.test(value);
}

/** Parses a client-given id; anything but 24 hex digits is a 400 naming the argument. */
export function toObjectId(value: string, name: string): Types.ObjectId {
  if (!isObjectIdHex(value)) throw new BadRequestException(`${name} must be a 24-character hexadecimal id`);
  return new Types.ObjectId(value);
}

/** An `_id` as given by a client: an ObjectId when it is 24 hex digits, else the text itself. */
export function objectIdOrText(id: string): Types.ObjectId | string {
  return isObjectIdHex(id) ? new Types.ObjectId(id) : id;
}
