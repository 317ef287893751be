/**
 * Whether the client prefers an HTML page to JSON: browsers list text/html first, API clients
 * and curl do not mention it. Ties go to JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept || !accept.includes('text/html')) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const q = qualityOf(params);
    if (type === 'text/html') html = Math.max(html, q);
    else if (type === 'application/json' || type === 'application/problem+json') json = Math.max(json, q);
  }
  return html > json;
}

function qualityOf(params: string[]): number {
  for (const param of params) {
    const [key, value] = param.trim().split('=');
    if (key === 'q') {
      const q = Number(value);
      return Number.isFinite(q) ? q : 0;
    }
  }
  return 1;
}

/** Whether the client asks for JSON by name over HTML: `*\/*`, no Accept or a browser's list do not. */
export function namesJson(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('json') && !prefersHtml(accept);
}
