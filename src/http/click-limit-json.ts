import { Type } from '@sinclair/typebox';
import type { Link } from '../core/link.js';

const MaxClicks = Type.Union([Type.Integer(), Type.Null()], { description: 'The most people the link serves; null: no limit.' });
const ClicksLeft = Type.Union([Type.Integer(), Type.Null()], { description: 'Read only: how many of them are left (0: used up); null without a limit.' });
const FallbackUrl = Type.Union([Type.String(), Type.Null()], { description: 'Where an expired, deleted or used-up link sends visitors; null: the 410 page.' });

/** The click limit and fallback fields of the app API's link (spread into LinkJson). */
export const ClickLimitJson = { maxClicks: MaxClicks, clicksLeft: ClicksLeft, fallbackUrl: FallbackUrl };
/** The same in v1's spelling. */
export const ClickLimitV1Json = { max_clicks: MaxClicks, clicks_left: ClicksLeft, fallback_url: FallbackUrl };

export function clickLimitJsonOf(link: Link): { maxClicks: number | null; clicksLeft: number | null; fallbackUrl: string | null } {
  return { maxClicks: link.maxClicks, clicksLeft: link.clicksLeft, fallbackUrl: link.options?.fallbackUrl ?? null };
}

export function clickLimitV1JsonOf(link: Link): { max_clicks: number | null; clicks_left: number | null; fallback_url: string | null } {
  return { max_clicks: link.maxClicks, clicks_left: link.clicksLeft, fallback_url: link.options?.fallbackUrl ?? null };
}
