import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Two network namespaces made for one test and joined by a veth pair: `server` holds
 * SERVER_ADDRESS (and its own loopback), `client` holds CLIENT_ADDRESS. A connection from the
 * client is really not local to the server, and no packet reaches this machine's own
 * addresses or any other host: the tests' rule (loopback, or namespaces a test makes itself).
 */
export interface NamespacePair {
  server: string;
  client: string;
  /** Runs a command inside a namespace; its stdout when it succeeds. */
  exec(namespace: string, command: string[]): Promise<string>;
  remove(): Promise<void>;
}

export const SERVER_ADDRESS = "10.213.0.1";
export const CLIENT_ADDRESS = "10.213.0.2";

/** The pair, or why it cannot be made here (not root, no `ip` from iproute2, no netns support). */
export async function makeNamespacePair(): Promise<NamespacePair | string> {
  if (process.platform !== "linux") return "network namespaces need Linux";
  if (process.getuid?.() !== 0) return "making network namespaces needs root";
  const id = String(process.pid);
  const server = `spi-test-srv-${id}`;
  const client = `spi-test-cli-${id}`;
  const ip = (...args: string[]) => run("ip", args);
  const remove = async () => {
    for (const namespace of [server, client]) await ip("netns", "del", namespace).catch(() => {});
  };
  try {
    await ip("netns", "add", server);
    await ip("netns", "add", client);
    // The veth pair is made with its two ends already inside the namespaces: it never exists
    // in this machine's own namespace, and deleting a namespace deletes it.
    const [serverEnd, clientEnd] = [`spis${id}`, `spic${id}`];
    await ip(
      "link",
      "add",
      serverEnd,
      "netns",
      server,
      "type",
      "veth",
      "peer",
      "name",
      clientEnd,
      "netns",
      client,
    );
    await ip("-n", server, "addr", "add", `${SERVER_ADDRESS}/30`, "dev", serverEnd);
    await ip("-n", client, "addr", "add", `${CLIENT_ADDRESS}/30`, "dev", clientEnd);
    for (const [namespace, device] of [
      [server, serverEnd],
      [client, clientEnd],
      [server, "lo"],
      [client, "lo"],
    ] as const) {
      await ip("-n", namespace, "link", "set", device, "up");
    }
  } catch (error) {
    await remove();
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return `cannot make a network namespace pair here (${reason})`;
  }
  return {
    server,
    client,
    async exec(namespace, command) {
      return (await run("ip", ["netns", "exec", namespace, ...command])).stdout;
    },
    remove,
  };
}

/**
 * Starts `command` inside `namespace` and resolves once its stdout contains `ready`; `stop`
 * sends SIGTERM (`ip netns exec` hands the process over, so it is the command's own pid).
 */
export async function startInNamespace(
  namespace: string,
  command: string[],
  ready: string,
): Promise<{ stop(): Promise<void> }> {
  const child = spawn("ip", ["netns", "exec", namespace, ...command], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const exited = new Promise<void>((done) => child.on("exit", () => done()));
  await new Promise<void>((done, fail) => {
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      if (printed.includes(ready)) done();
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => fail(new Error(`exited (${code}) before it was ready: ${printed}`)));
  });
  return {
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
