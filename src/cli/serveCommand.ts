import { type Command, InvalidArgumentError } from "commander";
import { parseInstant } from "./buildCommand.js";

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new InvalidArgumentError("expected a port number, 0–65535");
  return port;
}

interface ServeOptions {
  out: string;
  port: number;
  host: string;
  now?: number;
}

export function registerServeCommand(program: Command) {
  program
    .command("serve")
    .description(
      "preview the output folder locally behind the same edge rules Cloudflare runs (out/_worker.js)",
    )
    .option("--out <dir>", "the built output folder", "out")
    .option("--port <n>", "port to listen on (0 picks a free one)", parsePort, 8080)
    .option(
      "--host <address>",
      "address to listen on; keys are refused over http except on loopback",
      "127.0.0.1",
    )
    .option(
      "--now <instant>",
      "serve the date window as at this ISO instant instead of the clock",
      parseInstant,
    )
    .addHelpText(
      "after",
      `
Plain static servers cannot stand in for this: they would hand out_keyed/ to anyone and answer
200 where the API answers 401/403/404. API_KEY_SHA256 in the environment replaces the key
digests built into the worker, as the deployment's secret does.`,
    )
    .action(async (options: ServeOptions) => {
      const { startPreviewServer } = await import("../serve/previewServer.js");
      const { previewExamples } = await import("../serve/previewExamples.js");
      const preview = await startPreviewServer({
        outDir: options.out,
        port: options.port,
        host: options.host,
        now: options.now,
        apiKeySha256: process.env.API_KEY_SHA256,
      });
      const examples = await previewExamples(preview.origin, options.out, "data");
      const key = examples.demoKey ?? "<your key>";
      const auth = `-H "Authorization: ClientIdentifier ${key}"`;
      console.log(
        `spi-static: previewing ${options.out} at ${preview.origin} through its _worker.js (Ctrl-C stops)`,
      );
      console.log(`  open SI:  curl ${examples.siUrl}`);
      console.log(`  keyed SI: curl ${auth} ${examples.siUrl}`);
      if (examples.piUrl) console.log(`  PI:       curl ${auth} ${examples.piUrl}`);
      if (examples.demoKey)
        console.log(
          `  (${key} is the public demo key of data/keys.demo.txt: it works when the build used it)`,
        );
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          preview.close().then(resolve, resolve);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
    });
}
