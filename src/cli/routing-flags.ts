import { InvalidArgumentError } from 'commander';

/** One route as the CLI reads it, checked later by the same rules as the API (core/routing-rules.ts). */
export interface RouteFlag {
  readonly country?: string[];
  readonly device?: string[];
  readonly language?: string[];
  readonly url: string;
}

const CONDITIONS = ['country', 'device', 'language'] as const;

/**
 * `--route 'country=DE,AT;device=ios;url=https://…'` (repeatable, in order): conditions separated
 * by `;`, values by `,`, and the URL last, so that whatever follows `url=` is the URL, `;` and all.
 */
export function parseRouteFlag(value: string, previous: RouteFlag[] = []): RouteFlag[] {
  const at = value.search(/(?:^|;)\s*url=/);
  if (at === -1) throw new InvalidArgumentError('give the URL last, as url=https://…');
  const url = value.slice(value.indexOf('url=', at) + 'url='.length).trim();
  const route: Record<string, string[] | string> = { url };
  for (const part of value.slice(0, at).split(';').filter((piece) => piece.trim() !== '')) {
    const [name = '', values = ''] = part.split('=', 2).map((piece) => piece.trim());
    if (!(CONDITIONS as readonly string[]).includes(name)) throw new InvalidArgumentError(`"${name}" is not country, device or language.`);
    route[name] = values.split(',').map((item) => item.trim()).filter((item) => item !== '');
  }
  return [...previous, route as unknown as RouteFlag];
}

export interface VariantFlag {
  readonly url: string;
  readonly weight: number;
}

/** `--variant URL=WEIGHT` (repeatable): the weight follows the last `=`, since a URL's query may hold others. */
export function parseVariantFlag(value: string, previous: VariantFlag[] = []): VariantFlag[] {
  const at = value.lastIndexOf('=');
  const weight = value.slice(at + 1).trim();
  if (at === -1 || !/^\d+$/.test(weight)) throw new InvalidArgumentError('give URL=WEIGHT, the weight a whole number from 1 to 1000.');
  return [...previous, { url: value.slice(0, at).trim(), weight: Number(weight) }];
}
