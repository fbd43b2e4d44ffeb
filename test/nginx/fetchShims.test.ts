import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFetchApi } from "../../src/nginx/fetchShims.js";

const shim = createFetchApi();

/** Pieces of request targets that URL parsing treats specially, and plain ones. */
const PIECES = [
  "/",
  "\\",
  ".",
  "..",
  "%2e",
  "%2E",
  ".%2e",
  "%2e.",
  "a",
  "SI.xml",
  "_keyed",
  "%2f",
  "%5c",
  "%00",
  "%",
  "%zz",
  "?",
  "#",
  "x=1",
  ";",
  " ",
  '"',
  "<",
  ">",
  "`",
  "{",
  "}",
  "^",
  "'",
  "|",
  "é",
  "３",
  "\t",
  "~",
  "@",
  ":",
  "&",
];
const target = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((p) => `/${p.join("")}`);
const origin = fc.constantFrom(
  "http://127.0.0.1:8080",
  "https://spi.example",
  "http://localhost",
  "HTTP://Spi.Example:80",
  "https://spi.example:443",
  "http://[::1]:9000",
);

describe("the URL stand-in for njs", () => {
  it("parses every request target as WHATWG URL (Node's) does: path, query, host", () => {
    fc.assert(
      fc.property(origin, target, (o, t) => {
        const real = new URL(`${o}${t}`);
        const ours = new shim.URL(`${o}${t}`);
        expect({ ...pick(ours), href: ours.href }).toEqual({
          ...pick(real),
          href: real.href.replace(/#.*$/, ""),
        });
      }),
      { numRuns: 3000 },
    );
  });

  it("resolves a path against a base as Node does (not one naming another host or scheme)", () => {
    const path = fc
      .oneof(
        target,
        target.map((t) => t.slice(1)),
      )
      // As a URL parser reads it (tabs and newlines removed, leading spaces and controls
      // stripped), the path must name no other host or scheme: " a:" is the scheme a:.
      .filter(
        (t) =>
          !/^[/\\]{2}|^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(
            // biome-ignore lint/suspicious/noControlCharactersInRegex: a URL parser strips C0 controls
            t.replace(/[\t\n\r]/g, "").replace(/^[\u0000-\u0020]+/, ""),
          ),
      );
    fc.assert(
      fc.property(origin, target, path, (o, base, path) => {
        const real = outcome(() => new URL(path, `${o}${base}`));
        expect(outcome(() => new shim.URL(path, `${o}${base}`))).toEqual(real);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses what is not an http(s) URL", () => {
    expect(() => new shim.URL("/relative")).toThrow(TypeError);
    expect(() => new shim.URL("ftp://spi.example/")).toThrow(TypeError);
    expect(() => new shim.URL("http://spi example/")).toThrow(TypeError);
  });
});

function outcome(parse: () => URL) {
  try {
    return pick(parse());
  } catch (error) {
    return error instanceof TypeError ? "TypeError" : error;
  }
}

function pick(url: URL) {
  const { protocol, hostname, port, host, pathname, search, origin } = url;
  return { protocol, hostname, port, host, pathname, search, origin };
}

describe("Headers, Request and Response stand-ins", () => {
  it("fold names, join repeated values and list them sorted, as Fetch does", () => {
    const init: [string, string][] = [
      ["Vary", "Authorization"],
      ["accept", "a"],
      ["ACCEPT", " b "],
    ];
    const ours = new shim.Headers(init);
    const real = new Headers(init);
    expect([...ours]).toEqual([...real]);
    expect(ours.get("Accept")).toBe(real.get("Accept"));
    expect(ours.get("missing")).toBeNull();
    ours.set("vary", "Origin");
    ours.delete("accept");
    expect([...ours]).toEqual([["vary", "Origin"]]);
  });

  it("normalise a request's URL and standard method", () => {
    const request = new shim.Request("http://127.0.0.1:8080/radiodns/spi/3.1/./SI.xml?", {
      method: "get",
      headers: { Authorization: "ClientIdentifier k" },
    });
    expect(request.url).toBe(new URL("http://127.0.0.1:8080/radiodns/spi/3.1/./SI.xml?").href);
    expect(request.method).toBe("GET");
    expect(new shim.Request("http://a/", { method: "patch" }).method).toBe("patch");
    expect(request.headers.get("authorization")).toBe("ClientIdentifier k");
  });

  it("hold a body whole and give it as text or bytes; none for null", async () => {
    const bytes = new TextEncoder().encode("<x>é</x>");
    for (const body of [
      "<x>é</x>",
      bytes,
      bytes.buffer,
      new Uint8Array([0, ...bytes]).subarray(1),
    ]) {
      const ours = new shim.Response(body, {
        status: 201,
        headers: { "Content-Type": "application/xml" },
      });
      expect(ours.status).toBe(201);
      expect(await ours.text()).toBe("<x>é</x>");
      expect(new Uint8Array(await ours.arrayBuffer())).toEqual(bytes);
    }
    expect(new shim.Response(null, { status: 304 }).body).toBeNull();
  });

  it("hand a file body on unread with its length, and read it only for text", async () => {
    let reads = 0;
    const file = {
      path: "/a.xml",
      byteLength: 3,
      read: () => {
        reads++;
        return new TextEncoder().encode("<a>");
      },
    };
    const asset = new shim.Response(file as unknown as BodyInit);
    const passed = await asset.arrayBuffer();
    expect(passed.byteLength).toBe(3);
    const answer = new shim.Response(passed);
    expect((answer as unknown as { file: unknown }).file).toBe(file);
    expect(reads).toBe(0);
    expect(await answer.text()).toBe("<a>");
    expect(reads).toBe(1);
    expect(new shim.Response("x").headers.get("content-type")).toBe(
      new Response("x").headers.get("content-type"),
    );
  });
});
