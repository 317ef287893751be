import { useState } from 'preact/hooks';
import { api, ApiError, type SignedIn } from '../api.js';
import { Field, FormError } from '../components/field.js';
import { Layout } from '../components/layout.js';
import { setSyncOutcomes } from '../flash.js';
import { Link, navigate, usePath } from '../router.js';
import { announceSession, startSession } from '../session.js';
import { syncAnonLinks } from '../sync.js';
import { REGISTRATION_CLOSED, useInstance, type Instance } from '../instance.js';
import { returnPath } from '../return-path.js';

type Mode = 'login' | 'register';
type Errors = { email?: string; password?: string; form?: string };

const withNext = (href: string, next: string | undefined) => (next ? `${href}?next=${encodeURIComponent(next)}` : href);

/**
 * "Sign in with …": a plain link, since the sign-in leaves this page for the provider's and comes
 * back signed in through the server's callback (ADR 0034).
 */
function SingleSignOnButton({ instance, next }: { instance: Instance | undefined; next: string | undefined }) {
  const sso = instance?.singleSignOn;
  if (!sso) return null;
  return (
    <p class="sso">
      <a class="button" href={`${sso.startUrl}?next=${encodeURIComponent(returnPath(next ?? null))}`} data-testid="sso-button">Sign in with {sso.name}</a>
    </p>
  );
}

/**
 * `/app/login` and `/app/register`, and the sign-in form a signed-in page shows in its own place
 * (`inPlace`: the address stays, and the page appears once signed in). Afterwards the anonymous
 * links move into the account.
 */
export function AuthPage({ mode, inPlace = false }: { mode: Mode; inPlace?: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const register = mode === 'register';
  const instance = useInstance();
  const path = usePath();
  const next = inPlace ? `${path}${location.search}` : new URLSearchParams(location.search).get('next') ?? undefined;

  const submit = async (event: Event) => {
    event.preventDefault();
    const missing: Errors = {};
    if (!email.trim()) missing.email = 'Enter your email address.';
    if (!password) missing.password = 'Enter a password.';
    setErrors(missing);
    if (missing.email || missing.password) return;
    setBusy(true);
    try {
      const { csrfToken, user } = await api<SignedIn>('POST', register ? '/api/auth/register' : '/api/auth/login', { email: email.trim(), password });
      startSession({ userId: user.id, email: user.email, role: user.role, csrfToken });
      const { outcomes, failed } = await syncAnonLinks();
      if (outcomes.length > 0 || failed) setSyncOutcomes(failed ? [...outcomes, { shortCode: '', outcome: 'rejected', reason: failed }] : outcomes);
      if (!inPlace) navigate(returnPath(next ?? null), { replace: true });
      announceSession();
    } catch (caught) {
      const field = caught instanceof ApiError ? caught.field() : undefined;
      const message = caught instanceof ApiError ? caught.problem.detail : 'Something went wrong.';
      setErrors(field === 'email' || field === 'password' ? { [field]: message } : { form: message });
      setBusy(false);
    }
  };

  if (register && instance?.registrationAllowed === false) {
    return (
      <Layout title="Registration closed">
        <p class="card narrow" data-testid="registration-closed">{REGISTRATION_CLOSED} Already have one? <Link href={withNext('/app/login', next)}>Sign in</Link>.</p>
        <SingleSignOnButton instance={instance} next={next} />
      </Layout>
    );
  }

  return (
    <Layout title={register ? 'Create an account' : 'Sign in'}>
      {inPlace && <p class="lead" data-testid="sign-in-in-place">Sign in to see this page; it opens as soon as you are signed in.</p>}
      {!register && <SingleSignOnButton instance={instance} next={next} />}
      {instance?.passwordLogin === false ? null : <form onSubmit={submit} class="card narrow" noValidate>
        <Field id="email" label="Email" type="email" autoComplete="email" required value={email}
          onInput={(e) => setEmail(e.currentTarget.value)} error={errors.email} />
        <Field id="password" label="Password" type="password" autoComplete={register ? 'new-password' : 'current-password'} required value={password}
          onInput={(e) => setPassword(e.currentTarget.value)} error={errors.password} />
        <FormError message={errors.form} />
        <button type="submit" disabled={busy}>{busy ? 'Please wait…' : register ? 'Create account' : 'Sign in'}</button>
        <p class="muted">
          {register ? <>Already registered? <Link href={withNext('/app/login', next)}>Sign in</Link></>
            : instance?.registrationAllowed === false ? <>No account yet? Ask this instance's administrator to create one for you.</>
              : <>No account yet? <Link href={withNext('/app/register', next)}>Register</Link></>}
        </p>
      </form>}
    </Layout>
  );
}
