import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiError, type CreatedPublicLink } from '../api.js';
import { liveAnonLinks, rememberAnonLink, type AnonLink } from '../anon-links.js';
import { CopyButton } from '../components/copy-button.js';
import { Countdown, useNow } from '../components/countdown.js';
import { DestinationFields, useDestination } from '../components/destination-fields.js';
import { FormError } from '../components/field.js';
import { Layout } from '../components/layout.js';
import { QrCode } from '../components/qr-code.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { ExternalUrl } from '../components/external-url.js';
import { REGISTRATION_CLOSED, useInstance } from '../instance.js';
import { OwnedShortenForm } from './owned-shorten-form.js';
import './home.css';

/**
 * `/`: signed in, shorten into the current workspace for good; signed out, shorten anonymously: the
 * link lives until the `expiresAt` the API answers, and is remembered here until then.
 */
export function HomePage() {
  const now = useNow();
  const recent = liveAnonLinks(now);
  const instance = useInstance();
  const { status } = useSession();
  const register = instance?.registrationAllowed ? <Link href="/app/register">Register</Link> : undefined;

  if (status === 'loading') {
    return <Layout title="Shorten a link"><p class="muted" aria-busy="true" data-testid="session-loading">Loading…</p></Layout>;
  }
  if (status === 'signed-in') {
    return (
      <Layout title="Shorten a link">
        <p class="lead" data-testid="lead">Links you shorten here are permanent and kept in your workspace: find them, with their clicks, on <Link href="/app/dashboard">your dashboard</Link>.</p>
        <OwnedShortenForm />
        {recent.length > 0 && <RecentLinks recent={recent} now={now} note="Anonymous links this browser still holds: they move into your account at your next sign-in." />}
      </Layout>
    );
  }
  return (
    <Layout title="Shorten a link">
      {instance?.anonymousLinksAllowed === false ? <SignInToShorten register={register} /> : instance && (
        <>
          <p class="lead" data-testid="lead">Anonymous links are temporary: each one shows here how long it has left. {register
            ? <>{register} to keep them for good: the links made here move into your account when you sign in.</>
            : <>Sign in to keep them for good: the links made here move into your account.</>}</p>
          <ShortenForm now={now} />
        </>
      )}

      {(instance?.anonymousLinksAllowed || recent.length > 0) && (
        <RecentLinks recent={recent} now={now} note={recent.length > 0 && <><Link href="/app/login">Sign in</Link>{register && <> or {register}</>} to keep these links.</>} />
      )}
    </Layout>
  );
}

function RecentLinks({ recent, now, note }: { recent: AnonLink[]; now: number; note: ComponentChildren }) {
  return (
    <section aria-labelledby="recent-heading">
      <h2 id="recent-heading">Your recent links</h2>
      {recent.length === 0 ? <p class="muted">Links you shorten here appear in this list until they expire.</p> : (
        <ul class="recent" data-testid="recent-links">
          {recent.map((link) => <RecentLink key={link.shortCode} link={link} now={now} />)}
        </ul>
      )}
      {note && <p>{note}</p>}
    </section>
  );
}

/** DISALLOW_ANONYMOUS_LINKS, signed out: the home page asks to sign in. */
function SignInToShorten({ register }: { register: ComponentChildren }) {
  return (
    <p class="lead" data-testid="sign-in-to-shorten">
      This instance shortens links for signed-in users only. <Link href="/app/login">Sign in</Link> to shorten a link{register ? <>, or {register} for an account.</> : <>. {REGISTRATION_CLOSED}</>}
    </p>
  );
}

function ShortenForm({ now }: { now: number }) {
  const destination = useDestination('anonymous');
  const [error, setError] = useState<{ field?: string; message: string }>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedPublicLink>();

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const link = await api<CreatedPublicLink>('POST', '/api/urls/public', { url: destination.final() });
      if (link.expiresAt) rememberAnonLink({ shortCode: link.shortCode, claimToken: link.claimToken, url: link.originalUrl, expiresAt: link.expiresAt });
      setCreated(link);
      destination.setUrl('');
    } catch (caught) {
      const problem = caught instanceof ApiError ? caught : undefined;
      setError({ field: problem?.field(), message: problem?.problem.detail ?? 'Something went wrong.' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form onSubmit={submit} class="shorten-anonymous" noValidate>
        <DestinationFields id="url" destination={destination} error={error?.field === 'url' ? error.message : undefined} />
        <button type="submit" disabled={busy}>{busy ? 'Shortening…' : 'Shorten'}</button>
        <FormError message={error && error.field !== 'url' ? error.message : undefined} />
      </form>

      {created && (
        <section class="result card" aria-labelledby="result-heading">
          <h2 id="result-heading">Your short link</h2>
          <p class="short-url">
            <a href={created.shortUrl} data-testid="short-url">{created.shortUrl}</a>
            <CopyButton text={created.shortUrl} label="Copy link" />
          </p>
          <p class="muted">to <ExternalUrl url={created.originalUrl} /></p>
          {created.expiresAt && <p><Countdown expiresAt={created.expiresAt} now={now} /></p>}
          <QrCode url={created.shortUrl} code={created.shortCode} />
        </section>
      )}
    </>
  );
}

function RecentLink({ link, now }: { link: AnonLink; now: number }) {
  const shortUrl = `${location.origin}/${link.shortCode}`;
  return (
    <li>
      <a href={shortUrl}>{shortUrl}</a>
      <span class="muted"> → <ExternalUrl url={link.url} /></span>
      <Countdown expiresAt={link.expiresAt} now={now} />
    </li>
  );
}
