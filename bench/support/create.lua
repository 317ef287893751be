-- wrk script for bench/redirect.ts: every request creates a link to a URL never sent before.
--   wrk -t1 -c64 -d10s -s create.lua http://127.0.0.1:PORT -- /api/urls/public NONCE [TOKEN]
-- NONCE keeps URLs apart between runs (a workspace answers a URL it already has with 200, not 201);
-- TOKEN, when given, is sent as `Authorization: Bearer TOKEN`. Use one thread (-t1): the counter is per thread.
require('wrk-result')
local path, nonce
local headers = { ['Content-Type'] = 'application/json' }
local n = 0

function init(args)
  path, nonce = args[1], args[2]
  if args[3] then headers['Authorization'] = 'Bearer ' .. args[3] end
end

function request()
  n = n + 1
  return wrk.format('POST', path, headers, '{"url":"https://example.com/bench/' .. nonce .. '/' .. n .. '"}')
end
