/** "Copy as curl" and "copy as typed-client code" for a call the explorer made. */
export interface CallDescription {
  beanId: string;
  functionName: string;
  args: unknown[];
  lang: string;
  transport: 'rest' | 'stomp';
}

/** A shell command with the same request (the token as a variable, never pasted into the snippet). */
export function curlOf(call: CallDescription, origin: string): string {
  const body = JSON.stringify({ beanId: call.beanId, functionName: call.functionName, args: call.args });
  return [
    `curl -s ${origin}/api/v1/bean/request`,
    `-H 'Content-Type: application/json'`,
    `-H 'Lang-Context: ${call.lang}'`,
    `-H 'Site-Context: default'`,
    `-H "Authorization: Bearer $TOKEN"`,
    `--data ${shellQuote(body)}`,
  ].join(' \\\n  ');
}

/** The same call with `@ccb/client`, over REST or `client.live` for STOMP. */
export function clientCodeOf(call: CallDescription, origin: string): string {
  const target = call.transport === 'stomp' ? 'client.live.beans' : 'client.beans';
  const args = call.args.map((arg) => JSON.stringify(arg)).join(', ');
  return [
    `import { createClient } from '@ccb/client';`,
    ``,
    `const client = createClient({ baseUrl: '${origin}', site: 'default', lang: '${call.lang}' });`,
    `await client.login(username, password);`,
    `const result = await ${target}.${call.beanId}.${call.functionName}(${args});`,
  ].join('\n');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
