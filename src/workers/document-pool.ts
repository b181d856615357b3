import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { packagePath } from '../config/package-root.js';
import { noRoom } from '../store/no-room.js';
import { documentHandler } from './document-handler.js';
import type { DocumentJob, DocumentResult, WorkerSetup } from './document-job.js';
import { fromWire, type WireResult } from './result-wire.js';
import { youngGenerationMb } from './young-generation.js';

/**
 * What the calling thread handles before the workers are started. A worker costs about 0.1 s of CPU
 * to start (node and our parser loaded again in its thread), what the main thread takes to describe
 * and store some 75 small pages: a crawl that ends within this (the demo's 43 pages) never pays for
 * one, and a longer crawl hands its pages to the workers from about the hundredth on. Bytes count
 * too, so that a few large pages do not hold the fetch loop up for long.
 */
const LOCAL_FIRST = { jobs: 64, bytes: 2 * 1024 * 1024 };

interface Slot {
  worker: Worker;
  readonly waiting: Map<number, (result: DocumentResult) => void>;
  /** Jobs of this turn of the event loop, posted together: one message (and one wake-up of the worker) for several pages. */
  outbox: DocumentJob[];
  transfers: ArrayBuffer[];
  /** The worker has loaded (its first message, null, came). */
  ready: boolean;
  /** How many of the pool's scope seeds this worker was sent. */
  seedsSent: number;
}

/**
 * Worker threads that describe and store documents, so parsing and disk writes use the machine's
 * other cores. Bodies are transferred, not copied, when the buffer is theirs alone. Each job goes to
 * the worker with the fewest jobs waiting. A worker that dies (out of memory on a monstrous page, say)
 * fails the jobs it held and is replaced, so the crawl goes on.
 *
 * @example
 * const pool = new DocumentPool(setup);
 * const result = await pool.run({ id: 0, url, contentType, xRobotsTag, body, store: true });
 * await pool.close();
 */
export class DocumentPool {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  private closing = false;
  /** Jobs that come before any worker is ready are handled here, on the calling thread. */
  private local: ((job: DocumentJob) => Promise<DocumentResult>) | undefined;
  private localSeedsSent = 0;
  /** What the calling thread was given while no worker was started. */
  private readonly handledHere = { jobs: 0, bytes: 0 };
  /** Seeds that widened the scope after the workers were set up, in order; each worker gets them with its next job. */
  private readonly scopeSeeds: string[] = [];
  private filled!: (err: Error) => void;
  /** Settles with the first store error that says the repository can take no more (`noRoom`: a full disk): the crawl must stop. */
  readonly full = new Promise<Error>((resolve) => (this.filled = resolve));

  /**
   * @param size worker threads (`document-threads`)
   * @param localFirst what the calling thread handles before the workers are started; `{ jobs: 0 }` starts them at once
   */
  constructor(
    private readonly setup: WorkerSetup,
    private readonly size = Math.max(1, Math.min(4, availableParallelism() - 1)),
    private readonly localFirst: { readonly jobs: number; readonly bytes?: number } = LOCAL_FIRST,
  ) {
    if (localFirst.jobs === 0) this.startWorkers();
  }

  private startWorkers(): void {
    for (let i = 0; i < this.size; i++) {
      const slot = { waiting: new Map(), outbox: [], transfers: [], ready: false, seedsSent: 0 } as unknown as Slot;
      this.start(slot);
      this.slots.push(slot);
    }
  }

  /**
   * Only the worker's young generation is bounded, as the main thread's is. Unbounded, V8 grows it to
   * 48 MB under the worker's allocation rate (a body, its text and its links per page, all
   * short-lived); capped, the crawl's peak RSS is 20–40 MB lower at the same speed (`npm run bench --
   * --pages 20000`, alternated: 173–191 MB against 213–217). A cap on the old generation could kill
   * the worker on a page at the body limit.
   */
  private start(slot: Slot): void {
    const worker = new Worker(packagePath('dist', 'workers', 'document-worker.js'), { workerData: this.setup, resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb() } });
    slot.worker = worker;
    slot.ready = false;
    slot.seedsSent = 0; // a new worker starts from the setup's seeds
    worker.on('message', (wire: WireResult | null) => {
      slot.ready = true;
      if (wire === null) return;
      const result = fromWire(wire);
      const done = slot.waiting.get(result.id);
      slot.waiting.delete(result.id);
      if ('error' in result) this.check(result);
      done?.(result);
    });
    const fail = (why: string): void => {
      for (const [id, done] of slot.waiting) done({ id, error: `document worker failed: ${why}`, code: 'worker' });
      slot.waiting.clear();
    };
    worker.on('error', (err) => fail(err.message));
    worker.on('exit', (code) => {
      if (this.closing || slot.worker !== worker) return;
      fail(`exited with code ${code}`);
      this.start(slot);
    });
  }

  /**
   * Widens the scope the workers check links against by one seed (already known to widen it). A job
   * carries the seeds its thread has not had yet, so every page fetched after its seed was read is
   * described under the scope that seed gave, and a replaced worker gets them all again.
   */
  widenScope(seed: string): void {
    this.scopeSeeds.push(seed);
  }

  private newSeeds(sent: number): { scopeSeeds?: readonly string[] } {
    return sent === this.scopeSeeds.length ? {} : { scopeSeeds: this.scopeSeeds.slice(sent) };
  }

  run(job: Omit<DocumentJob, 'id'>): Promise<DocumentResult> {
    const id = this.nextId++;
    let slot: Slot | undefined;
    for (const s of this.slots) if (s.ready && (slot === undefined || s.waiting.size < slot.waiting.size)) slot = s;
    // A worker takes about 0.1 s to start: a short crawl would spend most of its life waiting for it.
    if (slot === undefined) {
      if (this.slots.length === 0 && !this.closing) {
        const here = this.handledHere;
        here.jobs++;
        here.bytes += job.body.byteLength;
        if (here.jobs >= this.localFirst.jobs || here.bytes >= (this.localFirst.bytes ?? Infinity)) this.startWorkers();
      }
      const seeds = this.newSeeds(this.localSeedsSent);
      this.localSeedsSent = this.scopeSeeds.length;
      return (this.local ??= documentHandler(this.setup, false))({ ...job, ...seeds, id }).then((result) => {
        if ('error' in result) this.check(result);
        return result;
      });
    }
    const owned = job.body.byteOffset === 0 && job.body.byteLength === job.body.buffer.byteLength;
    const body = owned ? job.body : new Uint8Array(job.body);
    return new Promise((resolve) => {
      slot.waiting.set(id, resolve);
      if (slot.outbox.length === 0) setImmediate(() => this.post(slot));
      slot.outbox.push({ ...job, id, body });
      slot.transfers.push(body.buffer as ArrayBuffer);
    });
  }

  private check(result: { readonly error: string; readonly code: string | undefined }): void {
    if (noRoom(result.code)) this.filled(new Error(`the repository ${this.setup.repository} can take no more: ${result.error}`));
  }

  private post(slot: Slot): void {
    // Seeds go with the batch, to the worker that will handle it (a replaced one gets them all).
    const seeds = this.newSeeds(slot.seedsSent);
    slot.seedsSent = this.scopeSeeds.length;
    if (seeds.scopeSeeds) slot.outbox[0] = { ...slot.outbox[0]!, ...seeds };
    slot.worker.postMessage(slot.outbox, slot.transfers);
    slot.outbox = [];
    slot.transfers = [];
  }

  /** Worker threads in the pool (`document-threads`), started or not yet. */
  get threads(): number {
    return this.size;
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
