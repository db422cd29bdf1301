import { BadRequestException } from '@nestjs/common';
import { Types } from 'mongoose';

/** Parses a client-supplied id; anything but a 24-hex-digit ObjectId is a 400 naming the argument. */
export function toObjectId(value: string, name: string): Types.ObjectId {
  if (!/^[0-9a-f]{24}$/i.test(value)) {
    throw new BadRequestException(`${name} must be a 24-character hexadecimal id`);
  }
  return new Types.ObjectId(value);
}
