// What the paged lists share: a filter by one value, the "Newer" and "Older" buttons, and the load's progress or error.
import { describeError } from '../feedback.js';
import type { Loaded } from '../load.js';
import { Options } from '../table.js';

/** How many items a list page holds. */
export const PAGE_SIZE = 20;

/** A select of `values` (or "any") that calls `onPick` with the chosen one. */
export function Filter(props: {
  id: string;
  label: string;
  value: string;
  values: readonly string[];
  onPick(value: string): void;
}) {
  return (
    <form class="inline" onSubmit={(e) => e.preventDefault()}>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onPick(e.currentTarget.value)}>
        <option value="">any</option>
        <Options values={props.values} />
      </select>
    </form>
  );
}

/** The buttons to the newer and older pages of a list of `total` at `offset`. */
export function Pager({
  what,
  offset,
  total,
  go,
}: {
  what: string;
  offset: number;
  total: number;
  go(offset: number): void;
}) {
  return (
    <nav class="pager" aria-label={`Pages of ${what}`}>
      <button type="button" disabled={offset === 0} onClick={() => go(Math.max(0, offset - PAGE_SIZE))}>
        Newer
      </button>
      <button type="button" disabled={offset + PAGE_SIZE >= total} onClick={() => go(offset + PAGE_SIZE)}>
        Older
      </button>
    </nav>
  );
}

/** "Loading …" while a load runs, the API's problem when it failed, nothing once done. */
export function LoadState({ loaded, what }: { loaded: Loaded<unknown>; what: string }) {
  if (loaded.state === 'loading') return <p role="status">Loading {what}…</p>;
  if (loaded.state === 'failed')
    return (
      <p class="error" role="alert">
        {describeError(loaded.error)}
      </p>
    );
  return null;
}
