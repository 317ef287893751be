/**
 * A destination URL typed by a user: rendered as text (Preact escapes it) and linked only when it
 * is http(s), so that nothing stored can become a `javascript:` link even if the API let it through.
 */
export function ExternalUrl({ url }: { url: string }) {
  const safe = /^https?:\/\//i.test(url);
  return safe ? <a href={url} rel="noopener noreferrer nofollow" class="destination">{url}</a> : <span class="destination">{url}</span>;
}
