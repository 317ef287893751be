import { useEffect, useState } from 'preact/hooks';
import { api, type ResponseOf } from './api.js';

export type Instance = ResponseOf<'getInstance'>;

/** When the API cannot be asked, the forms show as usual: the API still answers 403 if they are refused. */
const EVERYTHING_ALLOWED: Instance = { registrationAllowed: true, anonymousLinksAllowed: true, passwordLogin: true, singleSignOn: null };

let asked: Promise<Instance> | undefined;
let known: Instance | undefined;

/** What this instance lets strangers do (`GET /api/instance`), asked once per page load; undefined until answered. */
export function useInstance(): Instance | undefined {
  const [instance, setInstance] = useState(known);
  useEffect(() => {
    if (known) return;
    asked ??= api<Instance>('GET', '/api/instance').catch(() => EVERYTHING_ALLOWED).then((answer) => (known = answer));
    let current = true;
    void asked.then((answer) => { if (current) setInstance(answer); });
    return () => { current = false; };
  }, []);
  return instance;
}

export const REGISTRATION_CLOSED = 'This instance does not accept new accounts: ask its administrator to create one for you.';
