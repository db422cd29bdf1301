import type { UserView } from '@ccb/client';
import { CcbError } from '@ccb/client';
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../context';

/** Accounts (ADMIN), searched by name or e-mail; each disabled or enabled, its role changed. */
export function Users() {
  const { api, t } = useConsole();
  const [search, setSearch] = useState('');
  const [users, setUsers] = useState<UserView[] | null>(null);
  const [problem, setProblem] = useState('');

  async function load() {
    const page = await api.client.beans.userManagementServiceImpl.listUsers(search ? { search } : {});
    setUsers(page.content);
  }
  useEffect(() => void load().catch((error: Error) => setProblem(error.message)), [search, api]);

  async function change(work: Promise<unknown>) {
    setProblem('');
    try {
      await work;
      await load();
    } catch (error) {
      setProblem(error instanceof CcbError ? `${error.status} ${error.message}` : String(error));
    }
  }

  const users$ = api.client.beans.userManagementServiceImpl;
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">{t('navUsers')}</h2>
      <label for="user-search">{t('searchUsers')}</label>
      <input id="user-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      {problem ? <p role="alert">{problem}</p> : null}
      {users === null ? <p>{t('loading')}</p> : null}
      {users && users.length > 0 ? (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">{t('navUsers')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('username')}</th>
                <th scope="col">E-mail</th>
                <th scope="col">{t('role')}</th>
                <th scope="col">{t('state')}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <td>{user.username}</td>
                  <td>{user.email}</td>
                  <td>
                    <select
                      aria-label={t('roleOf', { user: user.username })}
                      value={user.role}
                      onChange={(e) => void change(users$.changeRole(user.id, e.currentTarget.value))}
                    >
                      <option value="USER">USER</option>
                      <option value="ADMIN">ADMIN</option>
                    </select>
                  </td>
                  <td>
                    {user.disabled ? t('disabled') : t('enabled')}{' '}
                    <button
                      type="button"
                      class="secondary"
                      onClick={() =>
                        void change(user.disabled ? users$.enableUser(user.id) : users$.disableUser(user.id))
                      }
                    >
                      {user.disabled ? t('enable') : t('disable')}
                      <span class="visually-hidden"> {user.username}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
