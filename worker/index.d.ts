/** What a worker handler may answer for one request. */
export type WorkerAnswer =
  | undefined
  | string
  | {
      /** Exit code the answer stands for (default 0; 2 blocks, as for command hooks). */
      exitCode?: number
      /** The hook's stdout: plain text, or its JSON answer as an object. */
      stdout?: string | Record<string, unknown>
      stderr?: string
    }
  /** Any other object is the hook's JSON answer (its stdout). */
  | Record<string, unknown>

/**
 * Serves hookrt's worker protocol on stdin/stdout: one `{id, event, payload}` request per line
 * in, one `{id, exitCode, stdout, stderr}` answer per line out. Requests run concurrently; a
 * thrown error answers `exitCode: 1` with its message on stderr. Settles when stdin ends and
 * every answer has been written.
 */
export function serveWorker(
  handler: (event: string, payload: Record<string, unknown>) => WorkerAnswer | Promise<WorkerAnswer>,
  io?: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream },
): Promise<void>
