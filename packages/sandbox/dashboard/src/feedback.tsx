// What the page tells the user after a call: the API's own problem (its title and detail) when one fails, else a note.
import { isProblem } from '@merchant-payments/contract/internal/client/problem.js';

/** A message for the page: an error (a refused or failed call) or a notice (what an action did). */
export type Message = { kind: 'error' | 'notice'; text: string } | undefined;

/** The text of a failed call: `title: detail` of its problem+json, the field errors' details after it. */
export function describeError(error: unknown): string {
  if (isProblem(error)) {
    const fields = (error.errors ?? []).map((e) => e.detail).filter(Boolean);
    return [`${error.title}: ${error.detail ?? ''}`.trim(), ...fields].join(' ');
  }
  if (error instanceof Error) return error.message;
  return 'The sandbox answered with something other than a problem; see the network panel.';
}

/** Shows a message: errors as an alert, notices as a polite status, so a screen reader reads both. */
export function MessageLine({ message }: { message: Message }) {
  return (
    <div class="messages">
      <p role="alert" class="error">
        {message?.kind === 'error' ? message.text : ''}
      </p>
      <p role="status" class="notice">
        {message?.kind === 'notice' ? message.text : ''}
      </p>
    </div>
  );
}

/** A time as the API gives it, shortened for a table; the full value in its title. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span>—</span>;
  return <time dateTime={value}>{value.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>;
}

/** A form field's text, trimmed; empty when the form has no such field. */
export function fieldOf(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Seconds in a duration written `90`, `90s`, `15m`, `2h` or `1d`; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d{1,9})\s*([smhd]?)\s*$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNITS[match[2] || 's']!;
}
