// The sign-in form: a tenant's credentials as its variant sends them.
import { useState } from 'preact/hooks';
import { fieldOf } from './feedback.js';
import type { Credentials } from './session.js';

export function SignIn({ onSignIn }: { onSignIn: (credentials: Credentials) => Promise<void> }) {
  const [variant, setVariant] = useState<'A' | 'B'>('A');
  const [busy, setBusy] = useState(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => fieldOf(form, name);
    setBusy(true);
    try {
      await onSignIn(
        variant === 'A'
          ? { variant: 'A', accessToken: text('accessToken') }
          : { variant: 'B', publicKey: text('publicKey'), secretKey: text('secretKey') },
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} aria-label="Sign in">
      <p>Sign in with a tenant's credentials. They stay in this tab only and are sent as the API's own headers.</p>
      <fieldset>
        <legend>The API the tenant uses</legend>
        <label>
          <input type="radio" name="variant" value="A" checked={variant === 'A'} onChange={() => setVariant('A')} />{' '}
          Variant A
        </label>
        <label>
          <input type="radio" name="variant" value="B" checked={variant === 'B'} onChange={() => setVariant('B')} />{' '}
          Variant B
        </label>
      </fieldset>
      {variant === 'A' ? (
        <p class="field">
          <label for="access-token">Access token</label>
          <input id="access-token" name="accessToken" type="password" autocomplete="off" required />
        </p>
      ) : (
        <>
          <p class="field">
            <label for="public-key">Public key</label>
            <input id="public-key" name="publicKey" type="text" autocomplete="off" spellcheck={false} required />
          </p>
          <p class="field">
            <label for="secret-key">Secret key</label>
            <input id="secret-key" name="secretKey" type="password" autocomplete="off" required />
          </p>
        </>
      )}
      <button type="submit" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}
