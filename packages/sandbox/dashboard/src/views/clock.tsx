// The tenant's clock (mode and now) and "Advance" by a duration.
import { useState } from 'preact/hooks';
import { describeError, parseDuration, Time } from '../feedback.js';
import { answerOf, useLoad } from '../load.js';
import type { ViewProps } from '../view.js';

export function ClockPanel({ clients, version, refresh, say }: ViewProps) {
  const clock = useLoad(() => answerOf(clients.control.GET('/_sandbox/clock'), (d) => d.data), [clients, version]);
  const [by, setBy] = useState('5m');
  const advance = async (event: SubmitEvent) => {
    event.preventDefault();
    const seconds = parseDuration(by);
    if (seconds === undefined)
      return say({
        kind: 'error',
        text: `"${by}" is not a duration: write seconds, or a number with s, m, h or d (90s, 15m, 2h, 1d).`,
      });
    const { data, error } = await clients.control.POST('/_sandbox/clock/advance', { body: { seconds } });
    if (error !== undefined || !data) return say({ kind: 'error', text: describeError(error) });
    const { transitions, delivery_attempts: attempts, now } = data.data;
    say({
      kind: 'notice',
      text: `Advanced ${seconds} s to ${now}: ${transitions} status change(s), ${attempts} delivery attempt(s).`,
    });
    refresh();
  };
  return (
    <section class="clock" aria-label="Clock">
      <p>
        Clock{' '}
        {clock.state === 'done' ? (
          <>
            <span class="tag">{clock.data.mode}</span> <Time value={clock.data.now} />
          </>
        ) : clock.state === 'failed' ? (
          describeError(clock.error)
        ) : (
          '…'
        )}
      </p>
      <form onSubmit={(e) => void advance(e)} class="inline">
        <label for="advance-by">Advance by</label>
        <input id="advance-by" value={by} onInput={(e) => setBy(e.currentTarget.value)} size={6} />
        <button type="submit">Advance</button>
      </form>
    </section>
  );
}
