import type { LinkJson } from '../api.js';
import './routing-fields.css';

type ApiRoute = LinkJson['routes'][number];
type ApiVariant = LinkJson['variants'][number];

/** One route as the form edits it: countries and languages as text separated by commas, one device or any. */
interface RouteRow { country: string; device: string; language: string; url: string }
interface VariantRow { url: string; weight: string }
export interface RoutingValue { readonly routes: readonly RouteRow[]; readonly variants: readonly VariantRow[] }

export const NO_ROUTING: RoutingValue = { routes: [], variants: [] };
const DEVICES: Array<[string, string]> = [['', 'Any device'], ['ios', 'iOS'], ['android', 'Android'], ['mobile', 'Mobile (phone or tablet)'], ['desktop', 'Desktop']];
const MAX_ROWS = 10;

const listOf = (text: string) => text.split(',').map((item) => item.trim()).filter((item) => item !== '');

export function routingValueOf(link: LinkJson): RoutingValue {
  return {
    routes: link.routes.map((route) => ({
      country: (route.country ?? []).join(', '), device: route.device?.[0] ?? '', language: (route.language ?? []).join(', '), url: route.url,
    })),
    variants: link.variants.map((variant) => ({ url: variant.url, weight: String(variant.weight) })),
  };
}

/** The API's fields: [] removes, so an edit sends both whole; the server checks every rule and names the field. */
export function routingPayload(value: RoutingValue): { routes: ApiRoute[]; variants: ApiVariant[] } {
  return {
    routes: value.routes.map((row) => ({
      ...(listOf(row.country).length > 0 && { country: listOf(row.country) }),
      ...(row.device !== '' && { device: [row.device] }),
      ...(listOf(row.language).length > 0 && { language: listOf(row.language) }),
      url: row.url.trim(),
    })),
    variants: value.variants.map((row) => ({ url: row.url.trim(), weight: Number(row.weight) })),
  };
}

export const hasRouting = (value: RoutingValue) => value.routes.length > 0 || value.variants.length > 0;

/** The error of a routes or variants field (`routes[1].url: …`), if the last answer named one. */
export const routingError = (errors: Record<string, string>) =>
  Object.entries(errors).find(([field]) => field.startsWith('routes') || field.startsWith('variants'))?.[1];

/** Rows of routes (conditions and a URL) and of A/B variants (a URL and a weight), each added and removed in place. */
export function RoutingFields({ id, value, onChange, error }: { id: string; value: RoutingValue; onChange: (value: RoutingValue) => void; error?: string }) {
  const setRoute = (index: number, change: Partial<RouteRow>) => onChange({ ...value, routes: value.routes.map((row, i) => (i === index ? { ...row, ...change } : row)) });
  const setVariant = (index: number, change: Partial<VariantRow>) => onChange({ ...value, variants: value.variants.map((row, i) => (i === index ? { ...row, ...change } : row)) });
  return (
    <fieldset class="routing-fields" id={id} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Routing and A/B split</legend>
      <p class="hint">Routes are tried in order; the first whose every condition matches sends the visitor to its URL. Otherwise the variants share the visitors by weight.</p>
      {value.routes.map((row, index) => (
        <div class="routing-row" key={`route-${index}`} data-testid="route-row">
          <label>Countries<input name={`${id}-route-${index}-country`} placeholder="DE, AT" value={row.country} onInput={(e) => setRoute(index, { country: e.currentTarget.value })} /></label>
          <label>Device<select name={`${id}-route-${index}-device`} value={row.device} onChange={(e) => setRoute(index, { device: e.currentTarget.value })}>
            {DEVICES.map(([device, name]) => <option key={device} value={device}>{name}</option>)}
          </select></label>
          <label>Languages<input name={`${id}-route-${index}-language`} placeholder="de, fr" value={row.language} onInput={(e) => setRoute(index, { language: e.currentTarget.value })} /></label>
          <label class="routing-url">URL<input name={`${id}-route-${index}-url`} type="url" value={row.url} onInput={(e) => setRoute(index, { url: e.currentTarget.value })} /></label>
          <button type="button" class="secondary" onClick={() => onChange({ ...value, routes: value.routes.filter((_, i) => i !== index) })}>Remove route</button>
        </div>
      ))}
      {value.variants.map((row, index) => (
        <div class="routing-row" key={`variant-${index}`} data-testid="variant-row">
          <label class="routing-url">Variant URL<input name={`${id}-variant-${index}-url`} type="url" value={row.url} onInput={(e) => setVariant(index, { url: e.currentTarget.value })} /></label>
          <label>Weight<input name={`${id}-variant-${index}-weight`} type="number" min="1" max="1000" value={row.weight} onInput={(e) => setVariant(index, { weight: e.currentTarget.value })} /></label>
          <button type="button" class="secondary" onClick={() => onChange({ ...value, variants: value.variants.filter((_, i) => i !== index) })}>Remove variant</button>
        </div>
      ))}
      <div class="routing-actions">
        <button type="button" class="secondary" disabled={value.routes.length >= MAX_ROWS}
          onClick={() => onChange({ ...value, routes: [...value.routes, { country: '', device: '', language: '', url: '' }] })}>Add route</button>
        <button type="button" class="secondary" disabled={value.variants.length >= MAX_ROWS}
          onClick={() => onChange({ ...value, variants: [...value.variants, ...(value.variants.length === 0 ? [{ url: '', weight: '1' }] : []), { url: '', weight: '1' }] })}>Add variant</button>
      </div>
      {error && <p class="field-error" id={`${id}-error`} role="alert">{error}</p>}
    </fieldset>
  );
}

/** How the link page lists them: one line per route or variant. */
export function RoutingSummary({ link }: { link: LinkJson }) {
  const total = link.variants.reduce((sum, variant) => sum + variant.weight, 0);
  const condition = (route: ApiRoute) => [
    route.country && `country ${route.country.join(', ')}`, route.device && `device ${route.device.join(', ')}`, route.language && `language ${route.language.join(', ')}`,
  ].filter(Boolean).join(' and ');
  return (
    <ul class="routing-summary" data-testid="routing-summary">
      {link.routes.map((route, index) => <li key={`r${index}`}>If {condition(route)}: {route.url}</li>)}
      {link.variants.map((variant, index) => <li key={`v${index}`}>Variant {index + 1} ({Math.round((variant.weight / total) * 100)} %): {variant.url}</li>)}
    </ul>
  );
}
