import { ApiError } from '../api.js';
import { csrfHeader } from '../session.js';

/**
 * POSTs `body` as JSON and saves the answer as a file, named as the server's Content-Disposition
 * says. The file never leaves the browser: a blob URL, clicked once, then revoked.
 */
export async function downloadPost(path: string, body: unknown, fallbackName: string): Promise<void> {
  // The session cookie goes with the request; a write made with it echoes the CSRF token.
  const headers: Record<string, string> = { 'content-type': 'application/json', ...csrfHeader() };
  const response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!response.ok) {
    const problem = await response.json().catch(() => ({})) as { title?: string; detail?: string; code?: string };
    throw new ApiError({ status: response.status, title: problem.title ?? response.statusText, detail: problem.detail ?? `The server answered ${response.status}.`, code: problem.code ?? 'unknown' });
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
