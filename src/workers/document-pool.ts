import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { packagePath } from '../package-root.js';
import type { DocumentJob, DocumentResult, WorkerSetup } from './document-job.js';

interface Slot {
  readonly worker: Worker;
  readonly waiting: Map<number, (result: DocumentResult) => void>;
}

/**
 * Worker threads that describe and store documents, so parsing and disk writes use the machine's
 * other cores. Bodies are transferred, not copied, when the buffer is theirs alone. Each job goes to
 * the worker with the fewest jobs waiting.
 *
 * @example
 * const pool = new DocumentPool(setup);
 * const result = await pool.run({ id: 0, url, contentType, xRobotsTag, body, store: true });
 * await pool.close();
 */
export class DocumentPool {
  private readonly slots: Slot[] = [];
  private nextId = 0;

  constructor(setup: WorkerSetup, size = Math.max(1, Math.min(4, availableParallelism() - 1))) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(packagePath('dist', 'workers', 'document-worker.js'), { workerData: setup });
      const slot: Slot = { worker, waiting: new Map() };
      worker.on('message', (result: DocumentResult) => {
        const done = slot.waiting.get(result.id);
        slot.waiting.delete(result.id);
        done?.(result);
      });
      worker.on('error', (err) => {
        for (const [id, done] of slot.waiting) done({ id, error: `document worker failed: ${err.message}`, code: 'worker' });
        slot.waiting.clear();
      });
      this.slots.push(slot);
    }
  }

  run(job: Omit<DocumentJob, 'id'>): Promise<DocumentResult> {
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.waiting.size < slot.waiting.size) slot = s;
    const id = this.nextId++;
    const owned = job.body.byteOffset === 0 && job.body.byteLength === job.body.buffer.byteLength;
    const body = owned ? job.body : new Uint8Array(job.body);
    return new Promise((resolve) => {
      slot.waiting.set(id, resolve);
      slot.worker.postMessage({ ...job, id, body }, [body.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
