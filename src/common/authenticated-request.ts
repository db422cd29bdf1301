import type { Request } from 'express';
import { Principal } from './principal';

/** An Express request after the authentication guard: `principal` is null for guests. `id` is the request id. */
export interface AuthenticatedRequest extends Request {
  id: string;
  principal?: Principal | null;
}
