import { createSocket } from "node:dgram";
import { createServer } from "node:net";

/**
 * A port free on 127.0.0.1 now (the kernel's pick), for a server a test or the benchmark starts
 * on loopback: nginx, wrangler's dev server, the preview, NSD. With `udp`, free for UDP too (NSD
 * listens on both); the kernel's TCP pick is tried again until it is.
 */
export async function freePort({ udp = false }: { udp?: boolean } = {}): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((done, fail) => {
      const server = createServer();
      server.once("error", fail);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => done(typeof address === "object" && address ? address.port : 0));
      });
    });
    if (port === 0) throw new Error("the kernel gave no loopback port");
    if (!udp || (await udpFree(port))) return port;
  }
}

function udpFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createSocket("udp4");
    socket.once("error", () => done(false));
    socket.bind(port, "127.0.0.1", () => socket.close(() => done(true)));
  });
}
