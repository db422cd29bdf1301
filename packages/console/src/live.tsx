import { CcbError, LiveSubscription } from '@ccb/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { mayCall } from './api';
import { useConsole } from './context';

/** Most events the stream keeps on screen. */
const MAX_EVENTS = 200;

interface StreamedEvent {
  seq: number;
  destination: string;
  payload: unknown;
}

/** Topics the user may follow, streamed as they come; for admins, every job as a progress bar. */
export function Live() {
  const { api } = useConsole();
  return (
    <div class="live">
      {mayCall(api.role, 'ADMIN') ? <JobProgress /> : null}
      <TopicStream />
    </div>
  );
}

function TopicStream() {
  const { api, t } = useConsole();
  const [topic, setTopic] = useState('/topic/catalogue');
  const [subscriptions, setSubscriptions] = useState<LiveSubscription[]>([]);
  const [events, setEvents] = useState<StreamedEvent[]>([]);
  const [problem, setProblem] = useState('');
  const seq = useRef(0);
  useEffect(() => () => subscriptions.forEach((s) => s.unsubscribe()), []);

  async function subscribe(event: Event) {
    event.preventDefault();
    setProblem('');
    try {
      const subscription = await api.client.live.subscribe(topic.trim() as '/topic/catalogue', (payload) =>
        setEvents((old) => [{ seq: ++seq.current, destination: topic, payload }, ...old].slice(0, MAX_EVENTS)),
      );
      setSubscriptions((old) => [...old, subscription]);
    } catch (error) {
      setProblem(error instanceof CcbError ? `${error.status} ${error.message}` : String(error));
    }
  }

  function unsubscribe(subscription: LiveSubscription) {
    subscription.unsubscribe();
    setSubscriptions((old) => old.filter((s) => s !== subscription));
  }

  return (
    <section aria-labelledby="events-heading">
      <h2 id="events-heading">{t('events')}</h2>
      <form onSubmit={(e) => void subscribe(e)} class="inline">
        <label for="topic">{t('topic')}</label>
        <input
          id="topic"
          value={topic}
          onInput={(e) => setTopic(e.currentTarget.value)}
          aria-describedby={problem ? 'topic-problem' : undefined}
        />
        <button type="submit">{t('subscribe')}</button>
      </form>
      {problem ? (
        <p class="problem" id="topic-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <ul class="subscriptions">
        {subscriptions.map((s) => (
          <li key={s.destination}>
            <code>{s.destination}</code>{' '}
            <button type="button" onClick={() => unsubscribe(s)}>
              {t('unsubscribe')} <span class="visually-hidden">{s.destination}</span>
            </button>
          </li>
        ))}
      </ul>
      {events.length === 0 ? <p>{t('noEvents')}</p> : null}
      <ol class="events" aria-live="polite">
        {events.map((e) => (
          <li key={e.seq}>
            <code>{e.destination}</code> <pre>{JSON.stringify(e.payload, null, 2)}</pre>
          </li>
        ))}
      </ol>
    </section>
  );
}

interface JobState {
  id: string;
  type: string;
  status: string;
  progress: number;
}

/** Unfinished jobs when the view opens, then every `job.updated` of `/topic/jobs`. */
function JobProgress() {
  const { api, t } = useConsole();
  const [jobs, setJobs] = useState<Map<string, JobState>>(new Map());
  useEffect(() => {
    let subscription: LiveSubscription | undefined;
    const upsert = (job: JobState) => setJobs((old) => new Map(old).set(job.id, job));
    void api.client.live
      .subscribe('/topic/jobs', (event) => {
        if (event.event === 'job.updated') upsert(event.data);
      })
      .then((s) => (subscription = s))
      .catch(() => undefined);
    void api.client.beans.jobsManagementServiceImpl
      .searchJobs({ query: { status: 'IN_PROGRESS' }, limit: 50 })
      .then((page) => page.items.forEach((job) => upsert(job)))
      .catch(() => undefined);
    return () => subscription?.unsubscribe();
  }, [api]);
  return (
    <section aria-labelledby="jobs-heading">
      <h2 id="jobs-heading">{t('jobs')}</h2>
      {jobs.size === 0 ? <p>{t('noJobs')}</p> : null}
      <ul class="jobs">
        {[...jobs.values()].map((job) => (
          <li key={job.id} data-job-id={job.id}>
            <label for={`job-${job.id}`}>{t('jobProgress', { type: job.type, id: job.id })}</label>
            <progress id={`job-${job.id}`} max={100} value={job.progress} />
            <span class="progress-text">
              {job.progress} % · {job.status}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
