import type { SellerApplicationView } from '@ccb/client';
import { CcbError } from '@ccb/client';
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../context';
import { formatDate } from './money';

const APPLICATIONS_TOPIC = '/topic/seller-applications';

/** Pending seller applications (ADMIN), refreshed live; each approved, or rejected with a reason. */
export function SellerApplications() {
  const { api, t, lang } = useConsole();
  const [applications, setApplications] = useState<SellerApplicationView[] | null>(null);
  const [problem, setProblem] = useState('');

  async function load() {
    const page = await api.client.beans.sellerOnboardingServiceImpl.listSellerApplications({ status: 'PENDING' });
    setApplications(page.content);
  }
  useEffect(() => {
    void load().catch((error: Error) => setProblem(error.message));
    const subscription = api.client.live.subscribe(APPLICATIONS_TOPIC, () => void load().catch(() => undefined));
    return () =>
      void subscription.then(
        (s) => s.unsubscribe(),
        () => undefined,
      );
  }, [api]);

  async function decide(decision: Promise<unknown>) {
    setProblem('');
    try {
      await decision;
      await load();
    } catch (error) {
      setProblem(error instanceof CcbError ? `${error.status} ${error.message}` : String(error));
    }
  }

  return (
    <section aria-labelledby="applications-heading">
      <h2 id="applications-heading">{t('navSellers')}</h2>
      {problem ? <p role="alert">{problem}</p> : null}
      {applications === null ? <p>{t('loading')}</p> : null}
      {applications?.length === 0 ? <p>{t('notFound')}</p> : null}
      <ul class="cards">
        {applications?.map((application) => (
          <li key={application.id}>
            <ApplicationCard
              application={application}
              lang={lang}
              onApprove={() =>
                decide(api.client.beans.sellerOnboardingServiceImpl.approveSellerApplication(application.id))
              }
              onReject={(reason) =>
                decide(api.client.beans.sellerOnboardingServiceImpl.rejectSellerApplication(application.id, reason))
              }
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

interface CardProps {
  application: SellerApplicationView;
  lang: string;
  onApprove: () => Promise<void>;
  onReject: (reason: string) => Promise<void>;
}

function ApplicationCard({ application, lang, onApprove, onReject }: CardProps) {
  const { t } = useConsole();
  const [reason, setReason] = useState('');
  const { company } = application;
  const reasonId = `reason-${application.id}`;
  return (
    <article aria-label={company.name}>
      <h3>{company.name}</h3>
      <p>
        {application.username} · {company.street}, {company.postalCode} {company.city}, {company.country} ·{' '}
        {company.vatId} · {formatDate(application.createdAt, lang)}
      </p>
      <div class="inline">
        <button type="button" onClick={() => void onApprove()}>
          {t('approve')} <span class="visually-hidden">{company.name}</span>
        </button>
        <label for={reasonId}>{t('reason')}</label>
        <input id={reasonId} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        <button type="button" class="secondary" disabled={reason.trim() === ''} onClick={() => void onReject(reason)}>
          {t('reject')} <span class="visually-hidden">{company.name}</span>
        </button>
      </div>
    </article>
  );
}
