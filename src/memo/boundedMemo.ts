/** Keys each memo keeps at most: enough for a build's instants, small for a long-running preview. */
const DEFAULT_LIMIT = 100_000;

/**
 * `compute`, remembering each key's value: for pure functions of a number or string that a build
 * asks for again and again (UTC offsets, formatted instants). When `limit` keys are kept it
 * forgets them all and starts again, so a process that runs for weeks (`serve --watch`) stays
 * small. Never for values derived from the loaded model: those belong to one build.
 */
export function boundedMemo<Key, Value>(
  compute: (key: Key) => Value,
  limit = DEFAULT_LIMIT,
): (key: Key) => Value {
  const values = new Map<Key, Value>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) {
      if (values.size >= limit) values.clear();
      value = compute(key);
      values.set(key, value);
    }
    return value;
  };
}
