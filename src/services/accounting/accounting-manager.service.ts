import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { ContactBook } from './contact-book';
import { Contact } from './contact.view';

/**
 * `accountingManagerServiceImpl`: conditional access (DESIGN §2). `updateContact` is a buyer method: a guest gets
 * `null`, a user or an admin refreshes their own accounting contact from their profile.
 */
@Bean('accountingManagerServiceImpl', Role.ADMIN)
export class AccountingManagerService {
  constructor(private readonly contacts: ContactBook) {}

  @Exposed([], { role: Role.GUEST })
  async updateContact(): Promise<Contact | null> {
    const principal = RequestContext.principal();
    return principal ? this.contacts.ofPrincipal(principal) : null;
  }
}
