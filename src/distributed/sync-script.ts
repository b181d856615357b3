import { LEVEL_QUEUES_LUA } from './level-queues-script.js';

/**
 * The one script a worker calls (EVALSHA, atomic) for everything it tells and asks the shared
 * frontier: one round trip per sync, however many links, ends and hosts it carries.
 *
 * KEYS: ready (ZSET host → next-allowed ms), lease (ZSET host → expiry ms), owner (HASH host →
 * worker), counters (HASH: open, documents), next (HASH host → next-allowed ms, kept while the host
 * is idle so that its delay holds), hostCount (HASH host → URLs admitted, for max-pages-per-host),
 * gave (HASH host → "WORKER UNTIL": a host given back at the end of its time slice, which the worker
 * that gave it may not lease again before UNTIL ms unless no other worker has taken it).
 * Per-host and per-worker keys are built from the shard's prefix `t:{TAG}:`, whose hash tag keeps
 * every key of the shard in one Redis Cluster slot (crawl-shards.ts): the host's pending requests by
 * priority level (`q:HOST`, `qL:HOST` and their index, level-queues-script.ts),
 * `k:HOST` (LIST of the requests the host's lease holder took and has not finished), `w:WORKER`
 * (SET of the hosts it holds), `s:BUCKET` (SET of 48-bit integers: the seen-set, fingerprints split
 * by their top 16 bits so that each set stays small enough for Redis's 8-byte intset encoding).
 *
 * ARGV: prefix, worker, ttlMs, want (hosts to lease), batch (requests taken per host at a time),
 * order (bfs|dfs), maxPagesPerHost (0 = none), reclaim (1: give back what this worker id held before
 * it restarted), maxPages (max-page-number, 0 = none), permits wanted, permits returned, reapDelayMs
 * (how long a host taken back from a silent worker rests first: its last request's end is unknown),
 * levels (priority-levels), then six counted groups:
 *   admits  n × (bucket, member, host, request[, index])   index with levels > 1: member × 32 + level
 *   ends    n × (host, request, kind)          kind d = a document, x = any other end
 *   renew   n × host                           hosts the worker holds and still works
 *   back    n × (host, delayMs)                hosts it gives back, free again after delayMs
 *   more    n × host                           held hosts it wants more requests of
 *   raise   n × (host, request)                URLs found again whose level rose: moved up if still queued
 *
 * A permit lets a worker start one request under max-page-number: `reserved` counts the documents
 * plus the permits held or in flight, so the crawl never passes the limit; a request that ends as
 * anything but a document gives its permit back.
 *
 * Reply: { open, documents, admitted, nextReadyInMs (-1: none waiting), permits granted, reserved,
 * hosts ready now, lost count, lost hosts…,
 * then per host taken from: host, requests left in its queue, count, requests… }.
 */
export const SYNC_SCRIPT = String.raw`
local READY, LEASE, OWNER, N, NEXT, HC, GAVE = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local P, worker = ARGV[1], ARGV[2]
local ttl, want, batch = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local dfs, maxHost, reclaim = ARGV[6] == 'dfs', tonumber(ARGV[7]), ARGV[8] == '1'
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mine = P .. 'w:' .. worker
local maxPages, wantPermits, returned = tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
local reapDelay = tonumber(ARGV[12])
local levels = tonumber(ARGV[13])
${LEVEL_QUEUES_LUA}
-- A host given back after its slice is first the other workers' to take: for as long as a busy
-- worker goes between syncs (a tenth of a lease period, at most 1 s). Its giver knows first when it
-- is ready again, and would otherwise take it back at once, every time.
local firstClaim = math.min(1000, math.floor(ttl / 10))

-- A host goes back to the shared queues: what its holder took and did not finish first, in order.
local function giveBack(host, at)
  local taken = P .. 'k:' .. host
  local reqs = redis.call('LRANGE', taken, 0, -1)
  for i = #reqs, 1, -1 do enqueue(host, reqs[i], true) end
  redis.call('DEL', taken)
  local owner = redis.call('HGET', OWNER, host)
  if owner then redis.call('SREM', P .. 'w:' .. owner, host) end
  redis.call('HDEL', OWNER, host)
  redis.call('ZREM', LEASE, host)
  local nextAt = math.max(at, tonumber(redis.call('HGET', NEXT, host) or '0'))
  redis.call('HSET', NEXT, host, nextAt)
  if waiting(host) > 0 then redis.call('ZADD', READY, nextAt, host) end
end

local out = {}
local function take(host)
  local reqs, left = takeQueued(host, batch)
  if #reqs > 0 then redis.call('RPUSH', P .. 'k:' .. host, unpack(reqs)) end
  out[#out + 1] = host
  out[#out + 1] = left
  out[#out + 1] = #reqs
  for i = 1, #reqs do out[#out + 1] = reqs[i] end
end

if reclaim then
  for _, host in ipairs(redis.call('SMEMBERS', mine)) do giveBack(host, now) end
end
for _, host in ipairs(redis.call('ZRANGEBYSCORE', LEASE, '-inf', now)) do giveBack(host, now + reapDelay) end

local i = 14
local admitted, ended, documents = 0, 0, 0
local width = 4
if levels > 1 then width = 5 end
for _ = 1, tonumber(ARGV[i]) do
  local bucket, member, host, req, index = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5]
  i = i + width
  if redis.call('SADD', P .. 's:' .. bucket, member) == 1
    and (maxHost <= 0 or redis.call('HINCRBY', HC, host, 1) <= maxHost) then
    admit(host, req, bucket, index)
    admitted = admitted + 1
    if redis.call('HEXISTS', OWNER, host) == 0 then
      redis.call('ZADD', READY, 'NX', tonumber(redis.call('HGET', NEXT, host) or '0'), host)
    end
  end
end
i = i + 1

for _ = 1, tonumber(ARGV[i]) do
  local host, req, kind = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  i = i + 3
  -- A request whose lease was reaped is back in its queue: its end no longer counts here.
  if redis.call('LREM', P .. 'k:' .. host, 1, req) == 1 then
    ended = ended + 1
    if kind == 'd' then documents = documents + 1 end
  end
end
i = i + 1

-- Every call renews all the worker's leases, in two commands whatever their number.
local lost = {}
local nRenew = tonumber(ARGV[i])
if nRenew > 0 then
  local held = { unpack(ARGV, i + 1, i + nRenew) }
  local flags = redis.call('SMISMEMBER', mine, unpack(held))
  local renewals = {}
  for j = 1, nRenew do
    if flags[j] == 1 then
      renewals[#renewals + 1] = now + ttl
      renewals[#renewals + 1] = held[j]
    else lost[#lost + 1] = held[j] end
  end
  if #renewals > 0 then redis.call('ZADD', LEASE, 'XX', unpack(renewals)) end
end
i = i + nRenew + 1

for _ = 1, tonumber(ARGV[i]) do
  local host, delay = ARGV[i + 1], tonumber(ARGV[i + 2])
  i = i + 2
  if redis.call('HGET', OWNER, host) == worker then
    giveBack(host, now + delay)
    redis.call('HSET', GAVE, host, worker .. ' ' .. (now + delay + firstClaim))
  end
end
i = i + 1

for _ = 1, tonumber(ARGV[i]) do
  local host = ARGV[i + 1]
  i = i + 1
  if redis.call('HGET', OWNER, host) == worker then take(host) end
end
i = i + 1

for _ = 1, tonumber(ARGV[i]) do
  raise(ARGV[i + 1], ARGV[i + 2])
  i = i + 2
end

-- Until when others have the first claim on a host this worker gave back (nil: none).
local function leftToOthers(host)
  local gave = redis.call('HGET', GAVE, host)
  if not gave then return nil end
  local giver, untilMs = string.match(gave, '^(.*) (%d+)$')
  untilMs = tonumber(untilMs)
  if giver == worker and now < untilMs then return untilMs end
  return nil
end

local leased, leftUntil = 0, nil
if want > 0 then
  -- Up to as many again are looked at, in case some are left to the others.
  for _, host in ipairs(redis.call('ZRANGEBYSCORE', READY, '-inf', now, 'LIMIT', 0, 2 * want)) do
    if leased == want then break end
    local left = leftToOthers(host)
    if left then leftUntil = math.min(leftUntil or left, left)
    else
      redis.call('ZREM', READY, host)
      redis.call('HDEL', GAVE, host)
      redis.call('ZADD', LEASE, now + ttl, host)
      redis.call('HSET', OWNER, host, worker)
      redis.call('SADD', mine, host)
      take(host)
      leased = leased + 1
    end
  end
end

-- The counters change once a call, by what the whole batch did.
local open = tonumber(redis.call('HGET', N, 'open') or '0')
if admitted ~= ended then open = redis.call('HINCRBY', N, 'open', admitted - ended) end
local done = tonumber(redis.call('HGET', N, 'documents') or '0')
if documents > 0 then done = redis.call('HINCRBY', N, 'documents', documents) end
local granted, reserved = 0, 0
if maxPages > 0 then
  reserved = tonumber(redis.call('HGET', N, 'reserved') or '0') - returned
  granted = math.max(0, math.min(wantPermits, maxPages - reserved))
  reserved = reserved + granted
  redis.call('HSET', N, 'reserved', reserved)
end
local first = redis.call('ZRANGE', READY, 0, 0, 'WITHSCORES')
local nextIn = -1
if #first > 0 then nextIn = math.max(0, tonumber(first[2]) - now) end
-- What is ready now is left to the others: for this worker it is ready once their first claim ends.
if leftUntil and leased < want and nextIn == 0 then nextIn = leftUntil - now end
local head = { open, done, admitted, nextIn, granted, reserved, redis.call('ZCOUNT', READY, '-inf', now), #lost }
for _, host in ipairs(lost) do head[#head + 1] = host end
for _, v in ipairs(out) do head[#head + 1] = v end
return head
`;

/** A link to admit: its seen-set fingerprint (bucket and member), its host and its request's bytes. */
export interface Admit {
  readonly bucket: number;
  readonly member: string;
  readonly host: string;
  readonly blob: Buffer;
  /** With priority levels: its level queue's index member, the fingerprint's member × 32 + its level (level-queues-script.ts). */
  readonly index?: string;
}

/** Everything one sync tells and asks (the ARGV above, typed). */
export interface SyncRequest {
  readonly worker: string;
  readonly ttlMs: number;
  readonly want: number;
  readonly batch: number;
  readonly order: 'bfs' | 'dfs';
  readonly maxPagesPerHost: number;
  readonly reclaim: boolean;
  readonly maxPages: number;
  readonly wantPermits: number;
  readonly returnedPermits: number;
  readonly reapDelayMs: number;
  /** priority-levels: 1 keeps each host's queue one list. */
  readonly levels: number;
  readonly admits: readonly Admit[];
  readonly ends: readonly { readonly host: string; readonly blob: Buffer; readonly kind: 'd' | 'x' }[];
  readonly renew: readonly string[];
  readonly back: readonly { readonly host: string; readonly delayMs: number }[];
  readonly more: readonly string[];
  /** URLs found again whose level rose, as requests at their new level. */
  readonly raises: readonly { readonly host: string; readonly blob: Buffer }[];
}

/** The script's reply, read. */
export interface SyncReply {
  readonly open: number;
  readonly nextReadyInMs: number;
  readonly granted: number;
  readonly reserved: number;
  /** Hosts ready to lease now. */
  readonly ready: number;
  readonly lost: readonly string[];
  readonly taken: readonly { readonly host: string; readonly left: number; readonly blobs: readonly Buffer[] }[];
}

/** The names of the script's KEYS, after the crawl's prefix. */
export const SYNC_KEYS = ['ready', 'lease', 'owner', 'n', 'next', 'hc', 'gave'] as const;

/** The keys and arguments of one call of {@link SYNC_SCRIPT} on the shard whose keys start with `prefix` (`t:{TAG}:`). */
export function syncArgs(prefix: string, r: SyncRequest): (string | number | Buffer)[] {
  const args: (string | number | Buffer)[] = SYNC_KEYS.map((k) => prefix + k);
  args.push(prefix, r.worker, r.ttlMs, r.want, r.batch, r.order, r.maxPagesPerHost, r.reclaim ? 1 : 0, r.maxPages, r.wantPermits, r.returnedPermits, r.reapDelayMs, r.levels);
  args.push(r.admits.length);
  if (r.levels > 1) for (const a of r.admits) args.push(a.bucket, a.member, a.host, a.blob, a.index ?? '');
  else for (const a of r.admits) args.push(a.bucket, a.member, a.host, a.blob);
  args.push(r.ends.length);
  for (const e of r.ends) args.push(e.host, e.blob, e.kind);
  args.push(r.renew.length, ...r.renew);
  args.push(r.back.length);
  for (const b of r.back) args.push(b.host, b.delayMs);
  args.push(r.more.length, ...r.more);
  args.push(r.raises.length);
  for (const u of r.raises) args.push(u.host, u.blob);
  return args;
}

/** Reads the reply of {@link SYNC_SCRIPT}, called through ioredis's Buffer variant (integers come as numbers). */
export function readSyncReply(reply: readonly (number | Buffer)[]): SyncReply {
  let at = 8;
  const lost: string[] = [];
  for (let n = reply[7] as number; n > 0; n--) lost.push(String(reply[at++]));
  const taken: { host: string; left: number; blobs: Buffer[] }[] = [];
  while (at < reply.length) {
    const host = String(reply[at++]);
    const left = reply[at++] as number;
    const blobs: Buffer[] = [];
    for (let n = reply[at++] as number; n > 0; n--) blobs.push(reply[at++] as Buffer);
    taken.push({ host, left, blobs });
  }
  return { open: reply[0] as number, nextReadyInMs: reply[3] as number, granted: reply[4] as number, reserved: reply[5] as number, ready: reply[6] as number, lost, taken };
}
