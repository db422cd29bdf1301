import { CanActivate, Injectable, NotFoundException } from '@nestjs/common';
import { AppConfig } from '../../config';

/** The e-mail flows exist only when AUTH_EMAIL_FLOWS is on; otherwise their paths answer 404 like unknown ones. */
@Injectable()
export class EmailFlowsEnabledGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (!this.config.authEmailFlows) throw new NotFoundException();
    return true;
  }
}
