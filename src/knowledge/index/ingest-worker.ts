// Entry point of a parser worker thread (see ingest-pool.ts): one file per message, the result
// posted back. The pool terminates this thread when a file passes its time or memory bound.
import { parentPort } from "node:worker_threads";
import { ownThreadClock } from "../documents/parse-bound.js";
import { KnowledgeError } from "../knowledge-error.js";
import { type IngestTask, ingestFile } from "./ingest-file.js";

// Whatever a parser prints is dropped here, so it never queues up in the parent's buffers.
const discard = (..._args: unknown[]) => true;
process.stdout.write = discard as typeof process.stdout.write;
process.stderr.write = discard as typeof process.stderr.write;

const port = parentPort;
if (!port) throw new KnowledgeError("not-a-worker", "ingest-worker.ts runs only as a worker thread");
port.on("message", (task: IngestTask & { seq: number }) => {
  ingestFile(task).then(
    (result) => port.postMessage({ seq: task.seq, result }),
    (error: unknown) =>
      port.postMessage({
        seq: task.seq,
        result: {
          ok: false,
          reason: `parser failed: ${error instanceof Error ? error.message : String(error)}`,
        },
      }),
  );
});
// Where this thread's CPU time can be read, so the pool bounds the work done (parse-bound.ts).
port.postMessage({ ready: true, clock: ownThreadClock() });
