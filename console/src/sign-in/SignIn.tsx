// The sign-in screen: the sandbox client's username and password, exchanged for a token kept for this tab only.
import { type FormEvent, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { sessionEndNotice, useSession } from '../api/session.ts';
import { Page } from '../components/Page.tsx';
import { SignInError, signIn } from './sign-in.ts';

export function SignIn() {
  const session = useSession();
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/orders';
  const [failure, setFailure] = useState<string>();
  const [pending, setPending] = useState(false);

  if (session) return <Navigate to={from} replace />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setFailure(undefined);
    try {
      await signIn(String(form.get('username')), String(form.get('password')));
    } catch (error) {
      setFailure(error instanceof SignInError ? error.message : String(error));
      setPending(false);
    }
  };

  const notice = sessionEndNotice();
  return (
    <Page
      title="Sign in"
      lead={
        <>
          Sign in with your sandbox client's username and password: the ones <code>npm start</code> printed for <code>demo</code>, or the
          ones you gave <code>npm run cli -- client create</code>. The console keeps the token for this tab only.
        </>
      }
    >
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <form className="panel sign-in" onSubmit={submit}>
        <div className="field">
          <label htmlFor="username">Username</label>
          <input id="username" name="username" autoComplete="username" required />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
        </div>
        {failure && (
          <p role="alert" className="notice error">
            {failure}
          </p>
        )}
        <button type="submit" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </Page>
  );
}
