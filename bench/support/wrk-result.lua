-- Shared by the bench's wrk scripts (loaded with require, wrk runs with this folder as its cwd):
-- when done, prints one JSON line: totals, errors, and the latency distribution as 1,000
-- quantiles in microseconds (so that the caller can merge rounds).
function done(summary, latency, requests)
  local quantiles = {}
  for i = 1, 1000 do quantiles[i] = latency:percentile(i / 10) end
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"statusErrors":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"quantilesUs":[%s]}\n',
    summary.requests, summary.duration, summary.errors.status, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.timeout, table.concat(quantiles, ',')))
end
