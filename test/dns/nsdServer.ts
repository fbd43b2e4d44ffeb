import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort } from "../../bench/loopbackPort.js";

export { freePort };

/**
 * NSD, a real authoritative DNS server, on a free loopback port, serving zones the test writes:
 * what a radio's resolver would reach. Shared by the lookup test and the receiver test. NSD
 * comes from .ci/system-packages; without it these tests fail, they are never skipped.
 */

/** A zone file: SOA, NS, the name server's address, then `extra` and `records` as given. */
export function zone(origin: string, records: string[], extra: string[] = []): string {
  return [
    `$ORIGIN ${origin}.`,
    "$TTL 3600",
    `@ IN SOA ns.${origin}. hostmaster.${origin}. 1 3600 600 86400 60`,
    `@ IN NS ns.${origin}.`,
    `ns IN A 127.0.0.1`,
    ...extra,
    ...records,
    "",
  ].join("\n");
}

export function waitForOutput(child: ChildProcess, text: string, what: string): Promise<string> {
  let output = "";
  return new Promise((done, fail) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(text)) done(output);
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.on("exit", (code) => fail(new Error(`${what} exited (${code}) early:\n${output}`)));
  });
}

export interface RunningNsd {
  port: number;
  stop(): Promise<void>;
}

/** Writes each zone into `root` (checked by nsd-checkzone first) and starts NSD on them. */
export async function startNsd(root: string, zones: Record<string, string>): Promise<RunningNsd> {
  const port = await freePort({ udp: true });
  for (const [name, text] of Object.entries(zones)) {
    await writeFile(join(root, `${name}.zone`), text);
    // NSD's own parser accepts the generated lines as zone-file syntax.
    execFileSync("nsd-checkzone", [name, join(root, `${name}.zone`)]);
  }
  await writeFile(
    join(root, "nsd.conf"),
    [
      "server:",
      "  ip-address: 127.0.0.1",
      `  port: ${port}`,
      '  username: ""',
      '  chroot: ""',
      `  zonesdir: "${root}"`,
      '  database: ""',
      `  pidfile: "${root}/nsd.pid"`,
      `  xfrdfile: "${root}/xfrd.state"`,
      `  zonelistfile: "${root}/zone.list"`,
      "  verbosity: 1",
      "remote-control:",
      "  control-enable: no",
      ...Object.keys(zones).flatMap((name) => [
        "zone:",
        `  name: ${name}`,
        `  zonefile: ${name}.zone`,
      ]),
      "",
    ].join("\n"),
  );
  const nsd = spawn("nsd", ["-d", "-c", join(root, "nsd.conf")]);
  const exited = new Promise<void>((done) => nsd.on("exit", () => done()));
  nsd.on("error", () => undefined);
  await waitForOutput(nsd, "nsd started", "nsd");
  return {
    port,
    stop: async () => {
      nsd.kill("SIGTERM");
      await exited;
    },
  };
}
