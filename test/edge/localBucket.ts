import { createServer } from "node:http";
import { join } from "node:path";
import { Miniflare } from "miniflare";

/**
 * A local R2 bucket as workerd keeps it, read and written by a small worker bound to it over
 * `dispatchFetch`, never through Miniflare's proxy of the binding (`getR2Bucket`): on Node 20.4+
 * that proxy's put can wait for good on a synchronous channel (cloudflare/miniflare#670,
 * nodejs/node#48668), which blocks the test's thread so that no timeout fires. It did, in 2 of 4
 * CI runs. A fetch that hangs here is an ordinary promise, bounded by CALL_TIMEOUT_MS.
 */
const BUCKET_WORKER = `
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/" && request.method === "GET") {
      const keys = [];
      let cursor;
      do {
        const page = await env.BUCKET.list(cursor === undefined ? {} : { cursor });
        keys.push(...page.objects.map((object) => object.key));
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor !== undefined);
      return Response.json(keys);
    }
    const key = decodeURIComponent(url.pathname.slice(1));
    if (request.method === "GET") {
      const object = await env.BUCKET.get(key);
      return object ? new Response(object.body) : new Response(null, { status: 404 });
    }
    if (request.method === "PUT") await env.BUCKET.put(key, await request.arrayBuffer());
    else if (request.method === "DELETE") await env.BUCKET.delete(key);
    else return new Response(null, { status: 405 });
    return new Response(null, { status: 204 });
  },
};`;

/** Long enough for a loaded CI machine, short enough to fail inside the test's own timeout. */
const CALL_TIMEOUT_MS = 30_000;

export interface LocalBucket {
  get(key: string): Promise<Buffer | undefined>;
  put(key: string, value: Uint8Array): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every key, sorted. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * The bucket `name` kept under `persist`: `{ defaultPersistRoot }` is a wrangler project's
 * `.wrangler/state/v3`, opened as `wrangler r2 object … --local` opens it; `{ r2Persist }` a
 * folder of its own. Close it before another workerd (`wrangler dev`) opens the same state.
 */
export async function openLocalBucket(
  name: string,
  persist: { defaultPersistRoot: string } | { r2Persist: string },
): Promise<LocalBucket> {
  const mf = new Miniflare({
    modules: true,
    script: BUCKET_WORKER,
    r2Buckets: { BUCKET: name },
    ...persist,
  });
  const call = async (method: string, key: string, body?: Uint8Array) => {
    const response = await mf.dispatchFetch(`http://bucket.test/${encodeURIComponent(key)}`, {
      method,
      body,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status >= 400 && response.status !== 404) {
      throw new Error(`${method} ${key} in the local bucket: ${response.status} ${bytes}`);
    }
    return response.status === 404 ? undefined : bytes;
  };
  return {
    get: (key) => call("GET", key),
    put: async (key, value) => void (await call("PUT", key, value)),
    delete: async (key) => void (await call("DELETE", key)),
    async keys() {
      const list = await call("GET", "");
      return (JSON.parse(list?.toString() ?? "[]") as string[]).sort();
    },
    close: () => mf.dispose(),
  };
}

/** The bucket of a wrangler project at `project`, as wrangler dev and `wrangler r2 --local` see it. */
export const openProjectBucket = (project: string, name: string) =>
  openLocalBucket(name, { defaultPersistRoot: join(project, ".wrangler", "state", "v3") });

/** What a change left in the bucket, kept by the front without asking the bucket again. */
export interface BucketView {
  keys: ReadonlySet<string>;
  /** The text of a remembered object the bucket holds. */
  text(key: string): string | undefined;
}

/**
 * The bucket behind a loopback HTTP front for the stand-in of `wrangler r2 object get|put|delete
 * <bucket>/<key> --local` (one wrangler process per object takes seconds; this takes
 * milliseconds): GET, PUT and DELETE on /<bucket>/<key>. `afterChange` runs after every put and
 * delete, while the next call waits, with the bucket's keys and the `remember`ed objects' text.
 */
export async function serveLocalBucket(
  local: LocalBucket,
  name: string,
  remember: string[],
  afterChange: (operation: string, view: BucketView) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const keys = new Set(await local.keys());
  const texts = new Map<string, string>();
  for (const key of remember) {
    const object = await local.get(key);
    if (object) texts.set(key, object.toString());
  }
  const view: BucketView = { keys, text: (key) => texts.get(key) };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
      const prefix = `/${name}/`;
      const key = path.slice(prefix.length);
      const answer = (status: number, body?: Uint8Array) => {
        response.writeHead(status);
        response.end(body);
      };
      if (!path.startsWith(prefix) || key === "") return answer(400);
      try {
        if (request.method === "GET") {
          const object = await local.get(key);
          return object ? answer(200, object) : answer(404);
        }
        if (request.method === "PUT") {
          const body = Buffer.concat(chunks);
          await local.put(key, new Uint8Array(body));
          keys.add(key);
          if (remember.includes(key)) texts.set(key, body.toString());
        } else if (request.method === "DELETE") {
          await local.delete(key);
          keys.delete(key);
          texts.delete(key);
        } else return answer(405);
        afterChange(`${request.method} ${key}`, view);
        answer(204);
      } catch (error) {
        response.writeHead(500);
        response.end(String(error));
      }
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
