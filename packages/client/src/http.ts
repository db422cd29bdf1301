import { CcbError, isErrorBody } from './errors';

export interface HttpContext {
  baseUrl: string;
  site: string;
  lang: string;
  token(): string | undefined;
  fetch: typeof fetch;
}

/** POSTs JSON with the context headers and the bearer token; @throws CcbError for any answer but 2xx JSON. */
export async function postJson<T>(context: HttpContext, path: string, body: unknown): Promise<T> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'Lang-Context': context.lang,
    'Site-Context': context.site,
  };
  const token = context.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    const init = { method: 'POST', headers, body: JSON.stringify(body) };
    response = await context.fetch(`${context.baseUrl}${path}`, init);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw CcbError.local('NETWORK_ERROR', 'Network Error', `POST ${path} failed: ${reason}`);
  }
  const parsed = await parse(response, path);
  if (response.ok) return parsed as T;
  if (isErrorBody(parsed)) throw new CcbError({ ...parsed, requestId: parsed.requestId ?? '' });
  throw CcbError.local(
    'BAD_RESPONSE',
    'Bad Response',
    `POST ${path} answered ${response.status} without an error body`,
  );
}

async function parse(response: Response, path: string): Promise<unknown> {
  const text = await response.text();
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    throw CcbError.local(
      'BAD_RESPONSE',
      'Bad Response',
      `POST ${path} answered ${response.status} with a body that is not JSON`,
    );
  }
}
