import { ArgumentInput, isDto } from './arguments';
import { CatalogueParam, JsonSchema } from './catalogue';
import { useConsole } from './context';

interface FieldProps {
  param: CatalogueParam;
  input: ArgumentInput;
  onInput: (input: ArgumentInput) => void;
  /** Problems by field (`args[0]`, `args[0].total`), from the server's 400 or the console's own checks. */
  problems: Record<string, string>;
}

/** The input of one argument, chosen by its declared type; a DTO gets one input per property. */
export function ArgumentField({ param, input, onInput, problems }: FieldProps) {
  const { t } = useConsole();
  const field = `args[${param.index}]`;
  const legend = `${t('argument', { index: param.index })}: ${param.type}`;
  if (isDto(param) && typeof input === 'object') {
    return (
      <fieldset class="argument">
        <legend>{legend}</legend>
        <Problem id={field} text={problems[field]} />
        {Object.entries(param.schema.properties ?? {}).map(([name, schema]) => (
          <PropertyInput
            key={name}
            id={`${field}.${name}`}
            name={name}
            schema={schema}
            required={param.schema.required?.includes(name) ?? false}
            value={input[name] ?? ''}
            onInput={(value) => onInput({ ...input, [name]: value })}
            problem={problems[`${field}.${name}`]}
          />
        ))}
      </fieldset>
    );
  }
  return (
    <div class="argument">
      <ValueInput
        id={field}
        label={legend}
        type={param.type}
        value={input as string | boolean}
        onInput={onInput}
        problem={problems[field]}
      />
      <Problem id={field} text={problems[field]} />
    </div>
  );
}

interface ValueInputProps {
  id: string;
  label: string;
  type: string;
  value: string | boolean;
  onInput: (value: string | boolean) => void;
  required?: boolean;
  schema?: JsonSchema;
  problem?: string;
}

function ValueInput({ id, label, type, value, onInput, required, schema, problem }: ValueInputProps) {
  const { t } = useConsole();
  const common = {
    id: inputId(id),
    'aria-invalid': problem ? ('true' as const) : undefined,
    'aria-describedby': problem ? problemId(id) : undefined,
    required,
  };
  const labelled = (control: preact.JSX.Element, hint?: string) => (
    <>
      <label for={inputId(id)}>
        {label}
        {required ? ' *' : ''}
        {hint ? <span class="hint"> ({hint})</span> : null}
      </label>
      {control}
    </>
  );
  if (type === 'boolean') {
    return (
      <label class="checkbox">
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onInput(e.currentTarget.checked)}
        />
        {label}
      </label>
    );
  }
  const text = String(value);
  const update = (e: { currentTarget: { value: string } }) => onInput(e.currentTarget.value);
  if (type === 'int' || type === 'integer' || type === 'number') {
    return labelled(
      <input {...common} type="text" inputMode="numeric" value={text} min={schema?.minimum} onInput={update} />,
    );
  }
  if (type === 'String' || type === 'string') {
    return labelled(<input {...common} type="text" value={text} maxLength={schema?.maxLength} onInput={update} />);
  }
  const hint = type === 'IdList' ? t('idsHint') : t('jsonHint');
  return labelled(<textarea {...common} rows={type === 'IdList' ? 3 : 4} value={text} onInput={update} />, hint);
}

interface PropertyProps {
  id: string;
  name: string;
  schema: JsonSchema;
  required: boolean;
  value: string | boolean;
  onInput: (value: string | boolean) => void;
  problem?: string;
}

function PropertyInput({ id, name, schema, required, value, onInput, problem }: PropertyProps) {
  const type = schema.type ?? (schema.enum ? 'string' : 'object');
  return (
    <div class="property">
      <ValueInput
        id={id}
        label={name}
        type={type}
        value={value}
        onInput={onInput}
        required={required}
        schema={schema}
        problem={problem}
      />
      <Problem id={id} text={problem} />
    </div>
  );
}

function Problem({ id, text }: { id: string; text?: string }) {
  if (!text) return null;
  return (
    <p class="problem" id={problemId(id)} role="alert">
      {text}
    </p>
  );
}

/** DOM ids from field paths (`args[0].total` → `field-args-0-total`). */
function inputId(field: string): string {
  return `field-${field.replace(/[^\w]+/g, '-').replace(/-$/, '')}`;
}

function problemId(field: string): string {
  return `${inputId(field)}-problem`;
}
