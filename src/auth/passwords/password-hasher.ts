import { Injectable, OnModuleInit } from '@nestjs/common';
import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

/** OWASP's argon2id baseline (19 MiB, 2 passes): about 40 ms per hash on these machines. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hashes and checks passwords with argon2id. */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private dummyHash = '';

  async onModuleInit(): Promise<void> {
    this.dummyHash = await this.hash(randomBytes(32).toString('base64'));
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  /**
   * argon2 compares in constant time. Only a mismatch is `false`: a malformed stored hash or a failure of
   * argon2 itself is the server's fault, not a wrong password, so it throws (a logged 500).
   */
  async verify(hash: string, password: string): Promise<boolean> {
    return argon2.verify(hash, password).catch((error: unknown) => {
      throw new Error('Password check failed: the stored hash is malformed or argon2 failed', { cause: error });
    });
  }

  /** Costs what a real check costs, so an unknown username answers as slowly as a wrong password. */
  async verifyDummy(password: string): Promise<false> {
    await this.verify(this.dummyHash, password);
    return false;
  }
}
