import { describe, expect, it } from "vitest";
import { digestOfKey } from "../../src/edge/apiKeys.js";
import { createEdgeWorker, type EdgeEnv, type EdgeSite } from "../../src/edge/edgeRules.js";

const BUILD_KEY = "build-key-000000000001";
const KEYS = ["secret-key-00000000001", "secret-key-00000000002"] as const;
const [ONE, TWO] = KEYS.map(digestOfKey) as [string, string];

const site: EdgeSite = {
  openSiPath: "radiodns/spi/3.1/SI.xml",
  keyedSiPath: "_keyed/radiodns/spi/3.1/SI.xml",
  piPathTemplate: "radiodns/spi/3.1/id/rdns.example/{service}/{date}_PI.xml",
  bearerPiPathTemplate: "radiodns/spi/3.1/{bearer}/{date}_PI.xml",
  bearerServices: {},
  serviceIds: ["news"],
  hosts: ["rdns.example"],
  openPi: false,
  timeZone: "Europe/Zurich",
  windowDays: 7,
  keyDigests: [digestOfKey(BUILD_KEY)],
  openMaxAge: 3600,
};
const worker = createEdgeWorker(site);
const ASSETS = { fetch: async () => new Response("<serviceInformation/>\n") };

/** The status and error code of the keyed SI request with `key`, under this secret. */
async function answer(secret: unknown, key: string): Promise<string> {
  const env = { ASSETS, API_KEY_SHA256: secret } as EdgeEnv;
  const request = new Request("https://spi.example/radiodns/spi/3.1/SI.xml", {
    headers: { authorization: `ClientIdentifier ${key}` },
  });
  const response = await worker.fetch(request, env);
  const code = /code="([a-z-]+)"/.exec(await response.text())?.[1];
  return `${response.status}${code ? ` ${code}` : ""}`;
}

describe("the API_KEY_SHA256 secret at the edge", () => {
  it("is read again when it changes between two requests to the same worker (parsed once per secret)", async () => {
    expect(await answer(ONE, KEYS[0])).toBe("200");
    expect(await answer(TWO, KEYS[0])).toBe("403 key-invalid");
    expect(await answer(TWO, KEYS[1])).toBe("200");
    expect(await answer(`${ONE} x`, KEYS[0])).toBe("503 keys-misconfigured");
    expect(await answer(ONE, KEYS[0])).toBe("200");
  });

  it.each([
    ["comma-separated", `${ONE},${TWO}`],
    ["upper-case hex, spaces", ` ${ONE.toUpperCase()} , ${TWO} `],
    ["one per line", `${ONE}\n${TWO}\n`],
    ["CRLF lines", `${ONE}\r\n${TWO}\r\n`],
    ["semicolons", `${ONE};${TWO};`],
    ["space-separated", `${ONE} ${TWO}`],
    ["pasted sha256sum output", `${ONE}  -\n${TWO}  -\n`],
    ["pasted binary-mode sha256sum output", `${ONE} *-\n${TWO} *-`],
  ])("accepts digests %s", async (_, secret) => {
    for (const key of KEYS) expect(await answer(secret, key)).toBe("200");
    expect(await answer(secret, BUILD_KEY)).toBe("403 key-invalid");
  });

  it.each([
    ["unset", undefined],
    ["empty", ""],
    ["blank", " \n "],
  ])("when %s, leaves the build's digests in force", async (_, secret) => {
    expect(await answer(secret, BUILD_KEY)).toBe("200");
    expect(await answer(secret, KEYS[0])).toBe("403 key-invalid");
  });

  it.each([
    ["a number", 42],
    ["a list", [ONE]],
    ["an object", { digest: ONE }],
    ["a plain key pasted instead of its digest", KEYS[0]],
    ["a digest next to a plain key", `${ONE},${KEYS[1]}`],
    ["a truncated digest", ONE.slice(0, 63)],
    ["sha256sum output of a file (not of the key)", `${ONE}  keys.txt`],
    ["a dash without its digest", "-"],
  ])("answers every keyed request 503 keys-misconfigured, never 500, for %s", async (_, secret) => {
    for (const key of [...KEYS, BUILD_KEY])
      expect(await answer(secret, key)).toBe("503 keys-misconfigured");
  });

  it("never echoes the secret, and leaves requests without a key alone", async () => {
    const env = { ASSETS, API_KEY_SHA256: `${ONE},${KEYS[1]}` } as EdgeEnv;
    const keyed = await worker.fetch(
      new Request("https://spi.example/radiodns/spi/3.1/SI.xml", {
        headers: { authorization: `ClientIdentifier ${KEYS[0]}` },
      }),
      env,
    );
    const body = await keyed.text();
    expect(body).toContain("entry 2 of API_KEY_SHA256 is not a SHA-256 digest");
    expect(body).not.toContain(KEYS[1]);
    expect(body).not.toContain(ONE);
    const open = await worker.fetch(
      new Request("https://spi.example/radiodns/spi/3.1/SI.xml"),
      env,
    );
    expect(open.status).toBe(200);
  });
});

describe("the worker when its ASSETS binding fails", () => {
  const keyed = () =>
    new Request("https://spi.example/radiodns/spi/3.1/SI.xml", {
      headers: { authorization: `ClientIdentifier ${BUILD_KEY}` },
    });
  const open = () => new Request("https://spi.example/radiodns/spi/3.1/SI.xml");
  const bindings: [string, unknown][] = [
    ["missing", undefined],
    ["without fetch", {}],
    [
      "throwing",
      {
        fetch: () => {
          throw new TypeError("binding gone");
        },
      },
    ],
    ["rejecting", { fetch: async () => Promise.reject(new Error("network")) }],
    ["answering 500", { fetch: async () => new Response("oops", { status: 500 }) }],
    ["answering no Response", { fetch: async () => undefined }],
  ];

  it.each(bindings)("answers its documented XML 503 when the binding is %s", async (_, binding) => {
    for (const request of [keyed(), open()]) {
      const response = await worker.fetch(request, { ASSETS: binding } as EdgeEnv);
      expect(response.status).toBe(503);
      expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(response.headers.get("retry-after")).toBe("60");
      expect(await response.text()).toBe(
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
          '<error status="503" code="unavailable">The documents cannot be read just now; try again later.</error>\n',
      );
    }
  });

  it("still answers 404 for a document the binding does not have", async () => {
    const notFound = { fetch: async () => new Response("", { status: 404 }) };
    const response = await worker.fetch(open(), { ASSETS: notFound } as EdgeEnv);
    expect(response.status).toBe(404);
  });
});
