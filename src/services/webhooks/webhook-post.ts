/** What one POST to a subscriber came to. */
export type PostOutcome = { result: 'delivered' } | { result: 'retry' | 'refused'; error: string };

/** Statuses worth another attempt; any other 4xx means the subscriber refuses this delivery for good. */
const RETRYABLE = (status: number) => status === 408 || status === 429 || status >= 500;

/** Posts `body` with the bearer token; never throws. */
export async function postWebhook(url: string, body: string, token: string, signal: AbortSignal): Promise<PostOutcome> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body,
      signal,
    });
    await response.body?.cancel();
    if (response.ok) return { result: 'delivered' };
    return { result: RETRYABLE(response.status) ? 'retry' : 'refused', error: `HTTP ${response.status}` };
  } catch (error) {
    return { result: 'retry', error: String(error) };
  }
}
