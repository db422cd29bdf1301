// The test page's script, bundled by esbuild for the browser: the client exactly as a storefront would use it.
import { createClient, JobEvent } from '../../src';

export interface ScenarioResult {
  transport: string;
  role: string | undefined;
  jobType: string;
  event: JobEvent;
}

type Via = 'websocket' | 'sockjs';

async function runScenario(baseUrl: string, password: string, transport: Via): Promise<ScenarioResult> {
  const client = createClient({ baseUrl, site: 'default', lang: 'en', live: { transport } });
  const token = await client.login('test-admin', password);
  const job = await client.beans.jobsManagementServiceImpl.startJob(`browser-${transport}`, 4);
  let progressed!: (event: JobEvent) => void;
  const progress = new Promise<JobEvent>((resolve) => (progressed = resolve));
  await client.live.subscribe(`/topic/job/${job.id}`, (event) => {
    if (event.event === 'job.updated' && event.data.current === 1) progressed(event);
  });
  await client.beans.jobsManagementServiceImpl.incrementJob(job.id, 1);
  const event = await progress;
  await client.close();
  return { transport: client.live.transport, role: token.role, jobType: job.type, event };
}

(window as unknown as { runScenario: typeof runScenario }).runScenario = runScenario;
