import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import type { CommandIo } from "./commandIo.js";

export interface NginxOptions {
  out: string;
  dir: string;
  listen: string;
  serverName: string;
  keysFile?: string | undefined;
  digestsFile?: string | undefined;
  /** Serve the date window as at this instant (ms) instead of the clock, as serve --now. */
  now?: number | undefined;
}

/**
 * `spi-static nginx`: writes the nginx server block and njs module for the site in --out, then
 * says what to include and when to run it again.
 */
export async function nginxCommand(options: NginxOptions, io: CommandIo): Promise<ExitCode> {
  const { writeNginxFiles } = await import("../nginx/writeNginxFiles.js");
  const { NGINX_FILES } = await import("../nginx/serverConfig.js");
  const written = await writeNginxFiles({
    outDir: options.out,
    dir: options.dir,
    listen: options.listen,
    serverName: options.serverName,
    keysFile: options.keysFile,
    keysList: io.env.SPI_API_KEYS,
    digestsFile: options.digestsFile,
    fixedNow: options.now === undefined ? undefined : new Date(options.now).toISOString(),
  });
  const server = written.files.find((file) => file.endsWith(NGINX_FILES.server));
  io.stdout(
    [
      ...written.files.map((file) => `wrote ${file}`),
      `keys: ${written.keyCount} digest(s) from ${written.keysOrigin}`,
      `include ${server}; in nginx.conf's http {} block, then: nginx -t && nginx -s reload`,
      "Nightly builds need no reload; run this again when keys or services change.",
    ].join("\n"),
  );
  return EXIT.ok;
}
