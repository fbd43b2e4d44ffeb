import { createServer } from "node:http";
import { join } from "node:path";
import { Miniflare } from "miniflare";

/**
 * wrangler's local R2 bucket of a project (`.wrangler/state/v3/r2/<bucket>`), opened the way
 * `wrangler r2 object … --local` opens it: a Miniflare with the project's persist root and the
 * bucket bound. Close it before `wrangler dev` opens the same state.
 */

/** The part of R2's bucket API used here (miniflare's own type needs @cloudflare/workers-types). */
export interface R2Like {
  put(key: string, value: Uint8Array): Promise<unknown>;
  get(
    key: string,
  ): Promise<{ text(): Promise<string>; arrayBuffer(): Promise<ArrayBuffer> } | null>;
  delete(key: string): Promise<void>;
  list(options: {
    cursor?: string;
  }): Promise<{ objects: { key: string }[]; truncated: boolean; cursor?: string }>;
}

export interface LocalBucket {
  bucket: R2Like;
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function openLocalBucket(project: string, name: string): Promise<LocalBucket> {
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch: () => new Response(null, { status: 404 }) };",
    defaultPersistRoot: join(project, ".wrangler", "state", "v3"),
    r2Buckets: { BUCKET: name },
  });
  const bucket = (await mf.getR2Bucket("BUCKET")) as unknown as R2Like;
  return {
    bucket,
    async keys() {
      const keys: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await bucket.list(cursor === undefined ? {} : { cursor });
        keys.push(...page.objects.map((object) => object.key));
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor !== undefined);
      return keys.sort();
    },
    close: () => mf.dispose(),
  };
}

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
    const object = await local.bucket.get(key);
    if (object) texts.set(key, await object.text());
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
          const object = await local.bucket.get(key);
          return object ? answer(200, new Uint8Array(await object.arrayBuffer())) : answer(404);
        }
        if (request.method === "PUT") {
          const body = Buffer.concat(chunks);
          await local.bucket.put(key, new Uint8Array(body));
          keys.add(key);
          if (remember.includes(key)) texts.set(key, body.toString());
        } else if (request.method === "DELETE") {
          await local.bucket.delete(key);
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
