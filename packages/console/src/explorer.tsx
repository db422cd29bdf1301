import { useEffect, useMemo, useState } from 'preact/hooks';
import { Outcome, Transport } from './api';
import { ArgumentField } from './argument-field';
import { ArgumentInput, emptyInput, fieldOf, InputProblem, toArgument } from './arguments';
import { callableMethods, CatalogueBean, CatalogueOverload, MethodEntry, searchMethods } from './catalogue';
import { useConsole } from './context';
import { JsonTree } from './json-tree';
import { CallDescription, clientCodeOf, curlOf } from './snippets';

/** Most entries the method list shows at once; typing narrows it. */
const MAX_LISTED = 60;

/** Beans and their methods from the registry, searchable; a form per overload; the answer as a tree. */
export function Explorer({ beans }: { beans: CatalogueBean[] }) {
  const { api, t } = useConsole();
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<MethodEntry | null>(null);
  const methods = useMemo(() => callableMethods(beans, api.role), [beans, api.role]);
  const matches = searchMethods(methods, query);
  return (
    <div class="explorer">
      <section class="method-list" aria-labelledby="methods-heading">
        <h2 id="methods-heading">{t('methods')}</h2>
        <label for="method-search">{t('searchMethods')}</label>
        <input
          id="method-search"
          type="search"
          value={query}
          placeholder={t('searchHint')}
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        {matches.length === 0 ? <p>{t('noMatch')}</p> : null}
        <ul>
          {matches.slice(0, MAX_LISTED).map((entry) => (
            <li key={`${entry.beanId}.${entry.name}`}>
              <button
                type="button"
                class="link"
                aria-current={selected === entry ? 'true' : undefined}
                onClick={() => setSelected(entry)}
              >
                {entry.beanId}.{entry.name}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section class="method-panel" aria-live="polite">
        {selected ? (
          <MethodPanel key={`${selected.beanId}.${selected.name}`} entry={selected} />
        ) : (
          <p>{t('chooseMethod')}</p>
        )}
      </section>
    </div>
  );
}

function MethodPanel({ entry }: { entry: MethodEntry }) {
  const { t } = useConsole();
  const [overloadIndex, setOverloadIndex] = useState(0);
  const overload = entry.overloads[Math.min(overloadIndex, entry.overloads.length - 1)];
  return (
    <div>
      <h2>
        {entry.beanId}.{entry.name}
      </h2>
      {entry.overloads.length > 1 ? (
        <fieldset class="overloads">
          <legend>{t('overload')}</legend>
          {entry.overloads.map((o, i) => (
            <label key={o.signature} class="radio">
              <input type="radio" name="overload" checked={i === overloadIndex} onChange={() => setOverloadIndex(i)} />
              <code>{o.signature}</code>
            </label>
          ))}
        </fieldset>
      ) : null}
      <p>
        <code>{overload.signature}</code> · {t('needsRole', { role: overload.role })}
      </p>
      <CallForm key={overload.signature} entry={entry} overload={overload} />
    </div>
  );
}

function CallForm({ entry, overload }: { entry: MethodEntry; overload: CatalogueOverload }) {
  const { api, t } = useConsole();
  const [inputs, setInputs] = useState<ArgumentInput[]>(() => overload.params.map(emptyInput));
  const [transport, setTransport] = useState<Transport>('rest');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [call, setCall] = useState<CallDescription | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setOutcome(null), [overload]);

  async function submit(event: Event) {
    event.preventDefault();
    let args: unknown[];
    try {
      args = overload.params.map((param) => toArgument(param, inputs[param.index]));
    } catch (error) {
      if (!(error instanceof InputProblem)) throw error;
      setProblems({ [error.field]: error.message });
      return;
    }
    setBusy(true);
    const answer = await api.call(transport, entry.beanId, entry.name, args);
    setBusy(false);
    setOutcome(answer);
    setCall({ beanId: entry.beanId, functionName: entry.name, args, lang: api.lang, transport });
    setProblems(answer.error ? problemsOf(answer) : {});
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      {overload.params.map((param) => (
        <ArgumentField
          key={param.index}
          param={param}
          input={inputs[param.index]}
          problems={problems}
          onInput={(input) => setInputs(inputs.map((old, i) => (i === param.index ? input : old)))}
        />
      ))}
      {problems[''] ? (
        <p class="problem" role="alert">
          {problems['']}
        </p>
      ) : null}
      <fieldset class="transport">
        <legend>{t('transport')}</legend>
        {(['rest', 'stomp'] as const).map((value) => (
          <label key={value} class="radio">
            <input type="radio" name="transport" checked={transport === value} onChange={() => setTransport(value)} />
            {value === 'rest' ? 'REST' : 'STOMP'}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={busy}>
        {busy ? t('calling') : t('call')}
      </button>
      {outcome && call ? <OutcomePanel outcome={outcome} call={call} /> : null}
    </form>
  );
}

/** Server problems by field: `details` when it names fields, else the message (placed by "Argument i:"). */
function problemsOf(outcome: Outcome): Record<string, string> {
  const error = outcome.error;
  if (!error) return {};
  const details = error.details ?? [];
  if (details.length === 0) return { [fieldOf(undefined, error.message)]: `${error.status} ${error.message}` };
  return Object.fromEntries(details.map((d) => [fieldOf(d.field, error.message), `${error.status} ${d.message}`]));
}

function OutcomePanel({ outcome, call }: { outcome: Outcome; call: CallDescription }) {
  const { t } = useConsole();
  const [snippet, setSnippet] = useState('');
  const copy = (text: string) => {
    setSnippet(text);
    void navigator.clipboard?.writeText(text).catch(() => undefined);
  };
  return (
    <section class={`outcome ${outcome.ok ? 'ok' : 'failed'}`} aria-labelledby="result-heading">
      <h3 id="result-heading">{t('result')}</h3>
      <dl class="facts">
        <dt>{t('status')}</dt>
        <dd data-testid="status">{outcome.status}</dd>
        <dt>{t('time')}</dt>
        <dd>{outcome.ms} ms</dd>
        <dt>{t('requestId')}</dt>
        <dd>
          <code>{outcome.requestId || '–'}</code>
        </dd>
      </dl>
      <div class="json" data-testid="result">
        <JsonTree value={outcome.value} />
      </div>
      <div class="actions">
        <button type="button" onClick={() => copy(curlOf(call, location.origin))}>
          {t('copyCurl')}
        </button>
        <button type="button" onClick={() => copy(clientCodeOf(call, location.origin))}>
          {t('copyClient')}
        </button>
      </div>
      {snippet ? (
        <>
          <label for="snippet">{t('snippet')}</label>
          <textarea id="snippet" readOnly rows={7} value={snippet} />
        </>
      ) : null}
    </section>
  );
}
