import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { verifySite } from "../../src/verify/verifySite.js";

const NOW = Date.parse("2026-11-23T08:00:00Z");
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A loopback origin answering every request with `answer`; counts the bytes it got out. */
async function origin(answer: (response: ServerResponse, sent: (n: number) => void) => void) {
  let sent = 0;
  const server = createServer((_request, response) => answer(response, (n) => (sent += n)));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent: () => sent,
  };
}

describe("verify against a hostile origin", () => {
  it("stops reading an answer that never ends at the size cap", async () => {
    const chunk = Buffer.alloc(64 * 1024, "<");
    const endless = await origin((response, sent) => {
      response.writeHead(200, { "Content-Type": "application/xml" });
      const more = () => {
        while (!response.destroyed && response.write(chunk)) sent(chunk.length);
        if (!response.destroyed) response.once("drain", more);
      };
      more();
    });
    const cap = 2 * 1024 * 1024;
    const report = await verifySite({ baseUrl: endless.url, now: NOW, maxBytes: cap });
    expect(report.ok).toBe(false);
    expect(report.checks).toEqual([
      {
        name: "site reachable",
        ok: false,
        detail: expect.stringMatching(/too large: .*SI\.xml answers with over 2 MB$/),
      },
    ]);
    // What it sent beyond the cap sat in socket buffers, never in verify's memory.
    expect(endless.sent()).toBeLessThan(cap + 8 * 1024 * 1024);
  });

  it("ends the whole run within --timeout when every answer but the SI trickles", async () => {
    const si =
      '<serviceInformation xmlns="http://www.worlddab.org/schemas/spi/31"><services><service>' +
      '<radiodns fqdn="rdns.test.example" serviceIdentifier="one"/></service></services></serviceInformation>';
    const trickle = await origin((response) => {
      response.writeHead(200, { "Content-Type": "application/xml" });
      if (response.req.url === "/radiodns/spi/3.1/SI.xml") {
        response.end(si);
        return;
      }
      const timer = setInterval(() => response.write("<"), 50);
      response.on("close", () => clearInterval(timer));
    });
    const started = Date.now();
    const report = await verifySite({
      baseUrl: trickle.url,
      now: NOW,
      withoutKey: true,
      timeoutMs: 1500,
    });
    // Each request alone may take 15 s: the run's limit is what ended it.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.ok).toBe(false);
    const details = report.checks.map((c) => c.detail).join("\n");
    expect(details).toMatch(/too slow: no complete answer from \S+ within 1\.\d+ s/);
    expect(details).toContain("not sent: the run's 1.5 s (--timeout) are spent");
  });
});
