/**
 * The archive's thread (started by WarcArchive): opens the WARC series given in `workerData`, then
 * writes the batches of exchanges the main thread posts, and answers each batch with the ids
 * written (and those that failed), once their records and CDXJ lines are on disk.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { WarcWriter, type ExchangeJob, type WriterSetup } from './warc-writer.js';

/** Main thread → archive thread. */
export type ToWriter = { readonly type: 'batch'; readonly jobs: readonly ExchangeJob[] } | { readonly type: 'close' };

/** Archive thread → main thread. */
export type FromWriter =
  | { readonly type: 'ready'; readonly known: Awaited<ReturnType<typeof WarcWriter.open>>['known'] }
  | { readonly type: 'written'; readonly ids: readonly number[]; readonly failed: readonly (readonly [id: number, message: string])[] }
  | { readonly type: 'unopened'; readonly message: string }
  | { readonly type: 'closed'; readonly message?: string };

const port = parentPort!;
const post = (message: FromWriter): void => port.postMessage(message);

try {
  const { writer, known } = await WarcWriter.open(workerData as WriterSetup);
  post({ type: 'ready', known });
  let ids: number[] = [];
  let failed: [number, string][] = [];
  // Answers go out once per turn of the event loop: one message for a batch the series wrote in one go.
  const answer = (): void => {
    if (ids.length + failed.length === 0) setImmediate(() => {
      post({ type: 'written', ids, failed });
      ids = [];
      failed = [];
    });
  };
  port.on('message', (message: ToWriter) => {
    if (message.type === 'close') {
      writer.close().then(() => post({ type: 'closed' }), (err: Error) => post({ type: 'closed', message: err.message })).finally(() => port.close());
      return;
    }
    for (const job of message.jobs) {
      writer.write(withBuffers(job)).then(
        () => (answer(), ids.push(job.id)),
        (err: Error) => (answer(), failed.push([job.id, err.message])),
      );
    }
  });
} catch (err) {
  post({ type: 'unopened', message: (err as Error).message });
  port.close();
}

/** A posted Buffer arrives as a plain Uint8Array: node's Buffer methods are wanted on the body. */
function withBuffers(job: ExchangeJob): ExchangeJob {
  if (!('capture' in job)) return job;
  const body = job.capture.wire.body;
  return { ...job, capture: { ...job.capture, wire: { ...job.capture.wire, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) } } };
}
