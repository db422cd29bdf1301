import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * One client locked out of one username after repeated failed logins. Kept in the database, where every instance
 * sees it, until `expiresAt` (TTL index; readers also compare the time, as TTL deletion runs only now and then).
 */
@Schema({ collection: 'login_lockouts' })
export class LoginLockout {
  /** Normalized username. */
  @Prop({ required: true })
  username!: string;

  /** The client address the failures came from. */
  @Prop({ required: true })
  client!: string;

  @Prop({ type: Date, required: true, expires: 0 })
  expiresAt!: Date;
}

export const LoginLockoutSchema = SchemaFactory.createForClass(LoginLockout);
LoginLockoutSchema.index({ username: 1, client: 1 }, { unique: true });
