import { cp, mkdir, mkdtemp, readFile } from "node:fs/promises";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NGINX_FILES } from "../../src/nginx/serverConfig.js";
import { writeNginxFiles } from "../../src/nginx/writeNginxFiles.js";
import { BUILD_NOW, buildTestSite } from "../edge/builtSite.js";
import { freePort, nginxAvailable, type RunningNginx, startNginx } from "./nginxServer.js";

/**
 * Paths and server names nginx reads its own way: an output folder with any character and a
 * configuration folder with `$`, `;`, braces or spaces work (nothing of them read as a variable
 * or the end of a directive); a server name nginx would misread, or a folder `include` takes
 * for a pattern or njs cannot import from, is refused with the reason.
 */

const ODD = "odd $uri semi; {braces}";
let outDir: string;
let work: string;
let port: number;
let nginx: RunningNginx | undefined;

/** The open SI under a Host of our choosing (fetch() sends its own; node:http does not). */
function send(host: string) {
  return new Promise<{ status: number; body: string }>((done, fail) => {
    const request = get(
      { port, host: "127.0.0.1", path: "/radiodns/spi/3.1/SI.xml", headers: { host } },
      (answer) => {
        let body = "";
        answer.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        answer.on("end", () => done({ status: answer.statusCode ?? 0, body }));
      },
    );
    request.on("error", fail);
  });
}

describe.skipIf(!nginxAvailable())("spi-static nginx with any folder and server name", () => {
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "spi-nginx-paths-"));
    // The served folder may hold any character: nginx only ever gets it through a variable.
    outDir = join(work, `out ${ODD} 'single' "double" back\\slash`);
    await cp((await buildTestSite("keyed")).outDir, outDir, { recursive: true });
    port = await freePort();
    const dir = join(work, `conf ${ODD}`);
    await writeNginxFiles({
      outDir,
      dir,
      listen: `127.0.0.1:${port}`,
      serverName: "~^spi\\.example$",
      fixedNow: BUILD_NOW,
    });
    nginx = await startNginx({
      // Any other Host goes to the default server: 418 says the name was not ours.
      httpBody: `    include "${join(dir, NGINX_FILES.server)}";
    server { listen 127.0.0.1:${port} default_server; return 418; }`,
      readyPort: port,
    });
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
  });

  it("serves the documents of an output folder whose path has $, quotes, \\, ; and spaces", async () => {
    const answer = await send("spi.example");
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(await readFile(join(outDir, "radiodns/spi/3.1/SI.xml"), "utf8"));
    expect(await nginx?.errorLog()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  });

  it("answers under a regular expression server name as nginx reads it", async () => {
    expect((await send("spiXexample")).status).toBe(418);
  });

  it("refuses a server name or folder nginx would read otherwise, saying why", async () => {
    const refused = (serverName: string, dir = join(work, "conf")) =>
      writeNginxFiles({ outDir, dir, listen: "127.0.0.1:8080", serverName });
    await expect(refused("spi.example\\")).rejects.toThrow(
      /--server-name spi\.example\\: not a host name/,
    );
    await expect(refused("~^spi\\")).rejects.toThrow(/--server-name/);
    await expect(refused("spi.example $host")).rejects.toThrow(/--server-name \$host/);
    const pattern = join(work, "conf[1]");
    await expect(refused("_", pattern)).rejects.toThrow(/reads \*, \? and \[ in an include/);
    await expect(refused("_", join(work, 'conf "q"'))).rejects.toThrow(/njs loads no module/);
    await expect(mkdir(pattern)).resolves.toBeUndefined();
  });
});
