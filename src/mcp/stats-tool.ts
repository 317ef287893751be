import { z } from 'zod';
import { Code } from './link-fields.js';
import { linksPath, type ToolKit } from './link-tools.js';
import { answer, answerOrProblem } from './tool-result.js';

interface ClassCounts { total: number; human: number; bot: number; preview: number }
/** The part of the workspace API's stats answer (LinkStatsV1 in /openapi.json) the summary reads. */
interface StatsJson {
  from: string; to: string;
  totals: ClassCounts & { uniqueVisitors: number };
  breakdowns: { referrers: Array<{ value: string | null; clicks: ClassCounts }>; browsers: Array<{ value: string | null; clicks: ClassCounts }>; devices: Array<{ value: string | null; clicks: ClassCounts }> };
  countries: Array<{ country: string | null; name: string; people: number; bots: number; previews: number; total: number }>;
}

const Counts = { people: z.number(), bots: z.number(), previews: z.number(), total: z.number() };
const TopValues = (what: string) => z.array(z.object({ value: z.string().nullable().describe(`The ${what}; null when the clicks had none.`), ...Counts }))
  .describe(`The ${what} values with the most clicks, most first.`);

const StatsSummary = {
  short_code: z.string(),
  from: z.string().describe('Start of the range (inclusive).'),
  to: z.string().describe('End of the range (exclusive).'),
  clicks: z.object(Counts).describe('Clicks by visitor class: people, bots (crawlers) and link previews (chat apps).'),
  unique_visitors: z.number().describe('People counted once per link and day.'),
  countries: z.array(z.object({ country: z.string().nullable(), name: z.string(), ...Counts })).describe('Countries with the most clicks, most first.'),
  referrers: TopValues('referrer host'),
  browsers: TopValues('browser'),
  devices: TopValues('device type'),
};

const countsOf = (clicks: ClassCounts) => ({ people: clicks.human, bots: clicks.bot, previews: clicks.preview, total: clicks.total });
const topOf = (values: StatsJson['breakdowns']['referrers']) => values.map(({ value, clicks }) => ({ value, ...countsOf(clicks) }));
const listed = (values: ReadonlyArray<{ label: string; total: number }>) =>
  (values.length === 0 ? 'none' : values.slice(0, 5).map(({ label, total }) => `${label} ${total}`).join(', '));

/** get_link_stats: a link's clicks over a range, summed, with its top countries, referrers, browsers and devices. */
export function registerStatsTool({ server, api, workspace }: ToolKit): void {
  server.registerTool('get_link_stats', {
    title: 'Get a link\'s stats',
    description: 'A link\'s clicks over a range (default: the last 30 days): people, bots and link previews, unique visitors, and its top countries, referrers, browsers and devices.',
    inputSchema: {
      code: Code,
      from: z.string().optional().describe('ISO 8601 date-time; default 30 days before to.'),
      to: z.string().optional().describe('ISO 8601 date-time, exclusive; default now.'),
    },
    outputSchema: StatsSummary,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ code, from, to }) => answerOrProblem(async () => {
    const stats = await api.call<StatsJson>('GET', `${linksPath(await workspace(), code)}/stats`, { query: { from, to } });
    const summary = {
      short_code: code, from: stats.from, to: stats.to, clicks: countsOf(stats.totals), unique_visitors: stats.totals.uniqueVisitors,
      countries: stats.countries.map(({ country, name, people, bots, previews, total }) => ({ country, name, people, bots, previews, total })),
      referrers: topOf(stats.breakdowns.referrers), browsers: topOf(stats.breakdowns.browsers), devices: topOf(stats.breakdowns.devices),
    };
    const { people, bots, previews, total } = summary.clicks;
    const text = [
      `${code}, ${stats.from} to ${stats.to}: ${total} clicks (${people} by people, ${bots} by bots, ${previews} link previews), ${summary.unique_visitors} unique visitors.`,
      `Top countries: ${listed(summary.countries.map(({ name, total: n }) => ({ label: name, total: n })))}.`,
      `Top referrers: ${listed(summary.referrers.map(({ value, total: n }) => ({ label: value ?? 'direct', total: n })))}.`,
    ].join('\n');
    return answer(text, summary);
  }));
}
