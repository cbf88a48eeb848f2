// The dashboard's entry: the sign-in form until the sandbox accepts the tab's credentials, then the views.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { MessageLine, describeError, type Message } from './feedback.js';
import { SignIn } from './sign-in.js';
import { Shell } from './shell.js';
import {
  clientsFor,
  forgetCredentials,
  loadCredentials,
  saveCredentials,
  type Clients,
  type Credentials,
} from './session.js';
import './style.css';

type Session = { state: 'checking' } | { state: 'out' } | { state: 'in'; clients: Clients };

/** Asks the sandbox whether `credentials` name a tenant, by reading its clock. */
async function check(credentials: Credentials): Promise<{ clients: Clients } | { error: unknown }> {
  try {
    // Note: inside the try, as a client refuses malformed credentials (a blank key) with a ClientConfigError.
    const clients = clientsFor(credentials);
    const { error } = await clients.control.GET('/_sandbox/clock');
    return error === undefined ? { clients } : { error };
  } catch (error) {
    return { error };
  }
}

function App() {
  const [session, setSession] = useState<Session>(() => (loadCredentials() ? { state: 'checking' } : { state: 'out' }));
  const [message, setMessage] = useState<Message>();
  useEffect(() => {
    const kept = loadCredentials();
    if (!kept) return;
    // Note: credentials kept from before are checked before anything else shows; refused ones are forgotten.
    void check(kept).then((result) => {
      if ('clients' in result) return setSession({ state: 'in', clients: result.clients });
      forgetCredentials();
      setSession({ state: 'out' });
      setMessage({ kind: 'error', text: describeError(result.error) });
    });
  }, []);

  const signIn = async (credentials: Credentials) => {
    setMessage(undefined);
    const result = await check(credentials);
    if ('error' in result) return setMessage({ kind: 'error', text: describeError(result.error) });
    saveCredentials(credentials);
    setSession({ state: 'in', clients: result.clients });
  };
  const signOut = () => {
    forgetCredentials();
    setSession({ state: 'out' });
    setMessage({ kind: 'notice', text: 'Signed out: this tab no longer holds the credentials.' });
  };

  if (session.state === 'in') return <Shell clients={session.clients} onSignOut={signOut} />;
  return (
    <main class="sign-in">
      <h1>Sandbox dashboard</h1>
      {session.state === 'checking' ? (
        <p role="status">Checking the credentials this tab kept…</p>
      ) : (
        <SignIn onSignIn={signIn} />
      )}
      <MessageLine message={message} />
    </main>
  );
}

render(<App />, document.getElementById('app')!);
