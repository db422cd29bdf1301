/** A JSON value as a tree: objects and arrays fold open and shut (`<details>`), keyboard included. */
export function JsonTree({ value, label, depth = 0 }: { value: unknown; label?: string; depth?: number }) {
  const name = label !== undefined ? <span class="json-key">{label}: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <div class="json-leaf">
        {name}
        <span class={`json-${value === null ? 'null' : typeof value}`}>{JSON.stringify(value) ?? 'undefined'}</span>
      </div>
    );
  }
  const entries: (readonly [string, unknown])[] = Array.isArray(value)
    ? value.map((item: unknown, i) => [String(i), item] as const)
    : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <details class="json-node" open={depth < 2}>
      <summary>
        {name}
        <span class="json-count">{summary}</span>
      </summary>
      {entries.map(([key, item]) => (
        <JsonTree key={key} value={item} label={key} depth={depth + 1} />
      ))}
    </details>
  );
}
