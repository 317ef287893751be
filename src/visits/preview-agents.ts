/**
 * Link-preview agents: software that fetches a link because someone posted it (in a chat, a social
 * network or an app using an unfurling service), to draw a card, not because anyone clicked. They
 * are counted as `preview`, not as clicks and not as crawlers. Each entry names whose agent it is and
 * where its User-Agent is described; an agent without a public source is not listed.
 *
 * Left out on purpose: `Facebot` (Meta's current crawler page lists only facebookexternalhit for
 * shares), `Pinterestbot` (its page says it crawls and indexes sites, which is a crawler's job),
 * Embedly, redditbot and Google's page renderer (no public description found). isbot still counts
 * all of them as `bot`.
 */
interface PreviewAgent {
  /** Matched case-insensitively anywhere in the User-Agent. */
  readonly token: string;
  readonly owner: string;
  readonly source: string;
}

export const PREVIEW_AGENTS: readonly PreviewAgent[] = [
  // Slack's unfurler; plain "Slackbot 1.0" is its other traffic, not a preview.
  { token: 'Slackbot-LinkExpanding', owner: 'Slack', source: 'https://api.slack.com/robots' },
  // Meta: shares on Facebook, Instagram and Messenger; Apple's Messages app sends it too.
  { token: 'facebookexternalhit', owner: 'Meta', source: 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers' },
  // X (Twitter) cards.
  { token: 'Twitterbot', owner: 'X', source: 'https://developer.x.com/en/docs/x-for-websites/cards/guides/getting-started' },
  // LinkedIn posts and messages.
  { token: 'LinkedInBot', owner: 'LinkedIn', source: 'https://www.linkedin.com/help/linkedin/answer/a521928' },
  // Discord embeds; described by Discord staff in discord/discord-api-docs#1600 (no docs page).
  { token: 'Discordbot', owner: 'Discord', source: 'https://github.com/discord/discord-api-docs/issues/1600' },
  // WhatsApp's "WhatsApp/2.x" fetch; Meta publishes no page for it, this third-party guide describes it.
  { token: 'WhatsApp/', owner: 'WhatsApp (Meta)', source: 'https://opengraphplus.com/consumers/whatsapp/crawling' },
  // Telegram's "TelegramBot (like TwitterBot)"; not documented by Telegram, seen in public logs (wireapp/wire-ios-link-preview#59).
  { token: 'TelegramBot', owner: 'Telegram', source: 'https://github.com/wireapp/wire-ios-link-preview/issues/59' },
  // Microsoft Teams and Skype; described by a third-party guide, not by Microsoft.
  { token: 'SkypeUriPreview', owner: 'Microsoft', source: 'https://opengraphplus.com/consumers/teams/crawling' },
  // Iframely, an unfurling service behind many apps: "we are not a crawler … only act on behalf of a human".
  { token: 'Iframely/', owner: 'Iframely', source: 'https://iframely.com/docs/about' },
  // Every Mastodon server fetches a preview card of each link its users receive ("http.rb/… (Mastodon/…; +https://server/)").
  { token: 'Mastodon/', owner: 'Mastodon (the fediverse)', source: 'https://github.com/mastodon/mastodon/blob/main/app/helpers/http_helper.rb' },
];

const PREVIEW_PATTERN = new RegExp(
  PREVIEW_AGENTS.map((agent) => agent.token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
  'i',
);

export function isPreviewAgent(userAgent: string): boolean {
  return PREVIEW_PATTERN.test(userAgent);
}
