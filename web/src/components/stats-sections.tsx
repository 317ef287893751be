import type { LinkStats, TopValue } from '../api.js';
import { count } from '../format.js';
import { BreakdownTable } from './breakdown-table.js';
import { ClicksChart } from './clicks-chart.js';

/** A link's stats as the link page and the shared stats page answer them (the shared one has no linkId). */
type Stats = Omit<LinkStats, 'linkId'>;

/** The range's totals by class, then the chart; busy while a new range loads. */
export function ClicksBody({ stats, loading }: { stats: Stats; loading: boolean }) {
  return (
    <div aria-busy={loading} data-testid="clicks-body">
      {loading && <p class="loading-note">Updating the clicks for this range…</p>}
      <p data-testid="click-totals">{count(stats.totals.total)} clicks: {count(stats.totals.human)} people (<span data-testid="unique-visitors" title="Each person counted once a day, without keeping who they are">{count(stats.totals.uniqueVisitors)} unique visitors</span>), {count(stats.totals.bot)} bots, {count(stats.totals.preview)} link previews</p>
      <ClicksChart stats={stats} />
    </div>
  );
}

/** Where the clicks came from: one table per breakdown. */
export function Breakdowns({ stats, loading }: { stats: Stats; loading: boolean }) {
  return (
    <section aria-labelledby="breakdowns-heading" aria-busy={loading}>
      <h2 id="breakdowns-heading">Where the clicks came from</h2>
      <div class="breakdowns">
        <BreakdownTable title="Referrers" rows={stats.breakdowns.referrers} empty="Direct" total={stats.totals.total} />
        <BreakdownTable title="Browsers" rows={stats.breakdowns.browsers} empty="Unknown" total={stats.totals.total} />
        <BreakdownTable title="Operating systems" rows={stats.breakdowns.oses} empty="Unknown" total={stats.totals.total} />
        <BreakdownTable title="Devices" rows={stats.breakdowns.devices} empty="Unknown" total={stats.totals.total} />
        <BreakdownTable title="Countries" rows={countryRows(stats.countries)} empty="Unknown" total={stats.totals.total} />
        {stats.cities.length > 0 && <BreakdownTable title="Cities" rows={cityRows(stats.cities)} empty="Unknown" total={stats.totals.total} />}
        {stats.destinations.length > 0 && <BreakdownTable title="Destinations" rows={destinationRows(stats.destinations)} empty="Unknown" total={stats.totals.total} />}
      </div>
      {/* DB-IP's licence (CC BY 4.0) asks for this line wherever its results are shown. */}
      <p class="muted small">Countries: <a href="https://db-ip.com">IP Geolocation by DB-IP</a>. No visitor's address is kept.</p>
    </section>
  );
}

/** A country's flag: two regional indicator letters. */
const flag = (code: string) => String.fromCodePoint(...[...code].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));

/** A country as a breakdown row: its flag and English name. */
function countryRows(countries: LinkStats['countries']): TopValue[] {
  return countries.map(({ country, name, people, bots, previews, total }) => ({
    value: country === null || !/^[A-Z]{2}$/.test(country) ? country : `${flag(country)} ${name}`,
    clicks: { total, human: people, bot: bots, preview: previews },
  }));
}

/** A city as a breakdown row: its country's flag, its name and its region (two cities of one name are told apart by it). */
function cityRows(cities: LinkStats['cities']): TopValue[] {
  return cities.map(({ country, region, city, people, bots, previews, total }) => ({
    value: !/^[A-Z]{2}$/.test(country) ? city : `${flag(country)} ${city}${region === undefined ? '' : `, ${region}`}`,
    clicks: { total, human: people, bot: bots, preview: previews },
  }));
}

/** A route or variant as a breakdown row, numbered from 1 as the link's details list them, with its URL (or that it is gone). */
function destinationRows(destinations: LinkStats['destinations']): TopValue[] {
  return destinations.map(({ served, url, people, bots, previews, total }) => {
    const [kind, index] = served.split(':');
    return {
      value: `${kind === 'route' ? 'Route' : 'Variant'} ${Number(index) + 1}: ${url ?? '(removed since)'}`,
      clicks: { total, human: people, bot: bots, preview: previews },
    };
  });
}
