-- wrk script for bench/redirect.ts: every request asks for a random short code.
--   wrk -t1 -c50 -d10s -s paths.lua http://127.0.0.1:PORT -- CODES_FILE     (uniform over the file's codes)
--   wrk -t1 -c50 -d10s -s paths.lua http://127.0.0.1:PORT -- probe:8        (a fresh random 8-char code each time)
-- When done, prints one JSON line: totals, errors, and the latency distribution as 1,000 quantiles
-- in microseconds (so that the caller can merge rounds).
local paths = {}
local probe = 0
local alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

function init(args)
  local source = args[1]
  if source:sub(1, 6) == 'probe:' then
    probe = tonumber(source:sub(7))
  else
    for line in io.lines(source) do
      if #line > 0 then paths[#paths + 1] = '/' .. line end
    end
  end
  math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1e6))
end

function request()
  local path
  if probe > 0 then
    local chars = {}
    for i = 1, probe do
      local k = math.random(58)
      chars[i] = alphabet:sub(k, k)
    end
    path = '/' .. table.concat(chars)
  else
    path = paths[math.random(#paths)]
  end
  return wrk.format('GET', path)
end

function done(summary, latency, requests)
  local quantiles = {}
  for i = 1, 1000 do quantiles[i] = latency:percentile(i / 10) end
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"statusErrors":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"quantilesUs":[%s]}\n',
    summary.requests, summary.duration, summary.errors.status, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.timeout, table.concat(quantiles, ',')))
end
