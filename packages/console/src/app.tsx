import { CcbError } from '@ccb/client';
import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import { Api, mayCall, Role } from './api';
import { CatalogueBean, loadCatalogue } from './catalogue';
import { Console, useConsole } from './context';
import { Explorer } from './explorer';
import { Lang, LANGUAGES, preferredLanguage, translate, WordKey } from './i18n';
import { Live } from './live';
import { Offers } from './back-office/offers';
import { Orders } from './back-office/orders';
import { SellerApplications } from './back-office/seller-applications';
import { SellerDesk } from './back-office/seller-desk';
import { Users } from './back-office/users';

interface Section {
  id: string;
  label: WordKey;
  role: Role;
  render: (beans: CatalogueBean[]) => preact.JSX.Element;
}

/** The console's sections, each shown to the roles that may use it. */
const SECTIONS: Section[] = [
  { id: 'explorer', label: 'navExplorer', role: 'GUEST', render: (beans) => <Explorer beans={beans} /> },
  { id: 'live', label: 'navLive', role: 'GUEST', render: () => <Live /> },
  { id: 'orders', label: 'navOrders', role: 'ADMIN', render: () => <Orders /> },
  { id: 'sellers', label: 'navSellers', role: 'ADMIN', render: () => <SellerApplications /> },
  { id: 'users', label: 'navUsers', role: 'ADMIN', render: () => <Users /> },
  { id: 'desk', label: 'navDesk', role: 'USER', render: () => <SellerDesk /> },
  { id: 'offers', label: 'navOffers', role: 'USER', render: () => <Offers /> },
];

export function App() {
  const [lang, setLang] = useState<Lang>(preferredLanguage);
  const [token, setToken] = useState<string | undefined>(undefined);
  const api = useMemo(() => new Api(lang, token), [lang, token]);
  useEffect(() => api.client.onTokenChange((info) => info?.token !== token && setToken(info?.token)), [api]);
  useEffect(() => () => void api.client.close(), [api]);
  // A layout effect, so the page's language changes in the same commit as its text (screen readers and tests see both).
  useLayoutEffect(() => {
    document.documentElement.lang = lang;
    document.title = translate(lang, 'title');
  }, [lang]);
  return (
    <Console.Provider value={{ api, lang }}>
      <Header onLang={setLang} onToken={setToken} />
      <Main />
    </Console.Provider>
  );
}

function Header({ onLang, onToken }: { onLang: (lang: Lang) => void; onToken: (token?: string) => void }) {
  const { api, lang, t } = useConsole();
  return (
    <header>
      <h1>{t('title')}</h1>
      <label class="inline">
        {t('language')}{' '}
        <select value={lang} onChange={(e) => onLang(e.currentTarget.value as Lang)}>
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {l === 'en' ? 'English' : 'Deutsch'}
            </option>
          ))}
        </select>
      </label>
      {api.role === 'GUEST' ? (
        <LoginForm onToken={onToken} />
      ) : (
        <p class="user">
          {t('loggedInAs', { user: api.username ?? '', role: api.role })}{' '}
          <button type="button" onClick={() => void api.client.logout().finally(() => onToken(undefined))}>
            {t('logout')}
          </button>
        </p>
      )}
    </header>
  );
}

function LoginForm({ onToken }: { onToken: (token?: string) => void }) {
  const { api, t } = useConsole();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState('');
  async function submit(event: Event) {
    event.preventDefault();
    try {
      const info = await api.client.login(username, password);
      onToken(info.token);
    } catch (error) {
      setProblem(error instanceof CcbError ? `${error.status} ${error.message}` : String(error));
    }
  }
  return (
    <form class="login inline" onSubmit={(e) => void submit(e)}>
      <label for="login-username">{t('username')}</label>
      <input
        id="login-username"
        autoComplete="username"
        value={username}
        onInput={(e) => setUsername(e.currentTarget.value)}
      />
      <label for="login-password">{t('password')}</label>
      <input
        id="login-password"
        type="password"
        autoComplete="current-password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
      />
      <button type="submit">{t('login')}</button>
      {problem ? (
        <p class="problem" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

function Main() {
  const { api, t } = useConsole();
  const [beans, setBeans] = useState<CatalogueBean[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [sectionId, setSectionId] = useState(() => location.hash.slice(1) || 'explorer');
  useEffect(() => {
    loadCatalogue().then(setBeans, () => setFailed(true));
  }, []);
  useEffect(() => {
    const follow = () => setSectionId(location.hash.slice(1) || 'explorer');
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  const sections = SECTIONS.filter((s) => mayCall(api.role, s.role));
  const section = sections.find((s) => s.id === sectionId) ?? sections[0];
  return (
    <>
      <nav aria-label={t('mainNav')}>
        <ul>
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} aria-current={s === section ? 'page' : undefined}>
                {t(s.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main>
        {failed ? <p role="alert">{t('loadCatalogueFailed')}</p> : null}
        {beans ? section.render(beans) : failed ? null : <p>{t('loading')}</p>}
      </main>
    </>
  );
}
