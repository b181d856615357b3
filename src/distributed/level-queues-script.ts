import { crawlRequestCodec } from '../frontier/request-codec.js';
import type { CrawlRequest } from '../model/crawl-request.js';

/**
 * The part of the sync script (sync-script.ts) that keeps priority levels inside each host's shared
 * queue: Mercator's front queues, as the local frontier keeps them (frontier/front-queues.ts), in
 * Redis. It expects the script's locals `P` (the shard's key prefix), `levels` (priority-levels) and
 * `dfs`, and defines `admit`, `enqueue`, `takeQueued`, `raise` and `waiting`.
 *
 * Keys, after the shard's prefix `t:{TAG}:`:
 *   q:HOST        LIST  the host's requests of level 1 (with one level, its whole queue), head = next
 *   qL:HOST       LIST  those of level L, 2 ≤ L ≤ 16
 *   levels        HASH  host → the selector's credits "c1,c2,…" ('' = all 0): kept from the moment a
 *                       host has a request above level 1 until it has none of any level left
 *   v:BUCKET      SET   every URL waiting in a queue (priority-levels > 1), by its seen-set
 *                       fingerprint: 16 bits name the set (as for the seen-set's s:BUCKET), the other
 *                       48 times 32 plus its level are the member (an integer exact in Lua's doubles,
 *                       a small set in Redis's 8-byte intset encoding)
 *   r:HOST        HASH  member less its level → copies of a URL moved up that still wait at lower levels
 *
 * With priority-levels > 1 a queued request is the codec's bytes (request-codec.ts) followed by its
 * URL's seen-set fingerprint, 8 bytes (bucket u16, member u48, big-endian; the codec reads past them),
 * so that a request taken from its queue can be found in the index; bytes without them (queued with
 * one level, or by an older version) are simply not in it. A link admitted comes with its level and
 * index member; a request given back or moved up has its level read by walking the codec's fields
 * (flag 64: the byte after its lastmod), which also tells whether a fingerprint follows. A URL found again that
 * rose (`raise`) is queued once more at its new level and its older copy, left where it is (a list
 * has no cheap removal from its middle), is dropped when taken: the index tells them apart.
 */
export const LEVEL_QUEUES_LUA = String.raw`
local LEVELS = P .. 'levels'

local function queueOf(host, level)
  if level == 1 then return P .. 'q:' .. host end
  return P .. 'q' .. level .. ':' .. host
end

-- A little-endian u32 of the request's bytes at 'at'.
local function u32(req, at)
  local b1, b2, b3, b4 = string.byte(req, at, at + 3)
  return b1 + b2 * 256 + b3 * 65536 + b4 * 16777216
end

-- The index set and member at level 0 of the fingerprint that ends a request's bytes. Bytes without
-- one give a member that is in no set (as unlikely as two URLs of one fingerprint).
local function tailOf(req)
  local k1, k2, m1, m2, m3, m4, m5, m6 = string.byte(req, -8, -1)
  return P .. 'v:' .. (k1 * 256 + k2), (((((m1 * 256 + m2) * 256 + m3) * 256 + m4) * 256 + m5) * 256 + m6) * 32
end
local function member(base, level) return string.format('%.0f', base + level) end

-- What a request's bytes say, walking the codec's fields: its level within 1 … levels (the local
-- frontier's clamp), and whether its URL's fingerprint follows them.
local function entryOf(req)
  if levels == 1 then return 1, false end
  local flags = string.byte(req, 5)
  local at = 10 + u32(req, 6)
  local original = u32(req, at)
  at = at + 4
  if original ~= 4294967295 then at = at + original end
  if flags % 64 >= 32 then at = at + 1 + string.byte(req, at) end
  local level = 1
  if flags % 128 >= 64 then
    level = math.min(levels, math.max(1, string.byte(req, at)))
    at = at + 1
  end
  return level, #req == at + 7
end

-- The credits a host's selector holds, and how many levels it spans (nil: only level 1 ever waited).
local function creditsOf(host)
  local saved = redis.call('HGET', LEVELS, host)
  if not saved then return nil, 1 end
  local credit = {}
  for c in string.gmatch(saved, '[^,]+') do credit[#credit + 1] = tonumber(c) end
  local k = math.max(levels, #credit)
  for l = #credit + 1, k do credit[l] = 0 end
  return credit, k
end

-- Requests waiting in a host's queues, of every level.
local function waiting(host)
  local n = redis.call('LLEN', queueOf(host, 1))
  local _, k = creditsOf(host)
  for l = 2, k do n = n + redis.call('LLEN', queueOf(host, l)) end
  return n
end

-- Queues a request at 'level' (indexed as 'index' unless nil): at the tail breadth-first, at the head
-- depth-first or when 'head' (given back, in its old place).
local function enqueueAt(host, req, level, set, index, head)
  local q = queueOf(host, level)
  if head or dfs then redis.call('LPUSH', q, req) else redis.call('RPUSH', q, req) end
  if level > 1 then redis.call('HSETNX', LEVELS, host, '') end
  if index then redis.call('SADD', set, index) end
end

-- Queues a request at the level its bytes say.
local function enqueue(host, req, head)
  local level, indexed = entryOf(req)
  if not indexed then return enqueueAt(host, req, level, nil, nil, head) end
  local set, base = tailOf(req)
  enqueueAt(host, req, level, set, member(base, level), head)
end

-- A link admitted: 'index' (with priority levels) is its fingerprint's member, times 32, plus its level.
local function admit(host, req, bucket, index)
  if levels == 1 then return enqueueAt(host, req, 1) end
  if not index or index == '' then return enqueue(host, req) end
  enqueueAt(host, req, tonumber(index) % 32, P .. 'v:' .. bucket, index)
end

-- A URL found again whose level rose: queued at its new level if it waits in a lower one; nothing if
-- it is taken already, or waits as high.
local function raise(host, req)
  local level, indexed = entryOf(req)
  if not indexed then return end
  local set, base = tailOf(req)
  for from = level - 1, 1, -1 do
    if redis.call('SREM', set, member(base, from)) == 1 then
      redis.call('HINCRBY', P .. 'r:' .. host, member(base, 0), 1)
      return enqueue(host, req)
    end
  end
end

-- Whether a request just taken from level 'level' is to go: false for the copy of a URL moved up since.
local function current(host, req, level, raisedBefore)
  local set, base = tailOf(req)
  if redis.call('SREM', set, member(base, level)) == 1 or not raisedBefore then return true end
  local raised, key = P .. 'r:' .. host, member(base, 0)
  local stale = tonumber(redis.call('HGET', raised, key) or '0')
  if stale == 0 then return true end
  if stale == 1 then redis.call('HDEL', raised, key) else redis.call('HINCRBY', raised, key, -1) end
  return false
end

-- Takes up to 'want' requests of a host, best level first: the levels picked one request at a time
-- by the local frontier's selector (front-queues.ts), a smooth weighted round robin over the levels
-- that hold requests, level L weighing 2^(L-1), ties to the higher level, an emptied level's credit
-- reset, so that the lowest level is never starved. Returns them and how many are left.
local function takeQueued(host, want)
  local credit, k = creditsOf(host)
  local reqs = {}
  if not credit then
    -- Only level 1 ever waited here: no copy can be stale.
    reqs = redis.call('LPOP', queueOf(host, 1), want) or {}
    if levels > 1 then for _, req in ipairs(reqs) do current(host, req, 1, false) end end
    return reqs, redis.call('LLEN', queueOf(host, 1))
  end
  local size, count, picks = {}, {}, {}
  for l = 1, k do
    size[l] = redis.call('LLEN', queueOf(host, l))
    count[l] = 0
  end
  for j = 1, want do
    local best, bestCredit, total = 0, 0, 0
    for l = k, 1, -1 do
      if size[l] > 0 then
        local w = 2 ^ (l - 1)
        total = total + w
        if best == 0 or credit[l] + w > bestCredit then best, bestCredit = l, credit[l] + w end
      end
    end
    if best == 0 then break end
    for l = 1, k do if size[l] > 0 then credit[l] = credit[l] + 2 ^ (l - 1) end end
    credit[best] = credit[best] - total
    size[best] = size[best] - 1
    if size[best] == 0 then credit[best] = 0 end
    count[best] = count[best] + 1
    picks[j] = best
  end
  local popped, at = {}, {}
  for l = 1, k do
    if count[l] > 0 then popped[l] = redis.call('LPOP', queueOf(host, l), count[l]) end
    at[l] = 1
  end
  local left = 0
  for l = 1, k do left = left + size[l] end
  for _, l in ipairs(picks) do
    local req = popped[l][at[l]]
    at[l] = at[l] + 1
    if current(host, req, l, true) then reqs[#reqs + 1] = req end
  end
  if left == 0 then redis.call('HDEL', LEVELS, host)
  else redis.call('HSET', LEVELS, host, table.concat(credit, ',')) end
  return reqs, left
end
`;

/** Where a URL is in the shared seen-set: its bucket (16 bits) and its member there (48). */
export interface SeenKey {
  readonly bucket: number;
  readonly member: number;
}

/** The bytes of a URL's fingerprint after a queued request's: bucket u16, member u48. */
const FINGERPRINT_BYTES = 8;

/**
 * A request as the shared queues hold it: the codec's bytes, followed with priority levels (`key`
 * given) by its URL's fingerprint, by which the script finds it when it is found again.
 *
 * @example
 * queuedRequest(req, { bucket: 0x1234, member: 42 }).length //=> the codec's length + 8
 */
export function queuedRequest(req: CrawlRequest, key?: SeenKey): Buffer {
  const buf = Buffer.allocUnsafe(crawlRequestCodec.maxSize(req) + (key ? FINGERPRINT_BYTES : 0));
  let end = crawlRequestCodec.encode(req, buf, 0);
  if (key) {
    buf.writeUInt16BE(key.bucket, end);
    buf.writeUIntBE(key.member, end + 2, 6);
    end += FINGERPRINT_BYTES;
  }
  return buf.subarray(0, end);
}

/** The member of a URL waiting at `level` in its level queue's index: its fingerprint's member × 32 + the level. */
export function indexMember(key: SeenKey, level: number): string {
  return String(key.member * 32 + level);
}
