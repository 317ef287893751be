-- wrk script for bench/redirect.ts: every request asks for a random short code.
--   wrk -t1 -c50 -d10s -s paths.lua http://127.0.0.1:PORT -- CODES_FILE     (uniform over the file's codes)
--   wrk -t1 -c50 -d10s -s paths.lua http://127.0.0.1:PORT -- probe:8        (a fresh random 8-char code each time)
require('wrk-result')
local paths = {}
local probe = 0
local alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
-- What a browser following a shared link sends: the analytics buffer keeps both headers.
local headers = {
  ['User-Agent'] = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  ['Referer'] = 'https://news.example/item?id=1',
}

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
  return wrk.format('GET', path, headers)
end
