import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { NGINX, NJS_MODULE } from "../../bench/nginxProcess.js";

export { freePort } from "../../bench/loopbackPort.js";
export { type RunningNginx, startNginx } from "../../bench/nginxProcess.js";

const run = promisify(execFile);

/**
 * Whether nginx with njs is here. Missing, the nginx tests skip on a developer's machine and
 * fail in CI (CI=true), where .ci/install-system-packages must have installed them.
 */
export function nginxAvailable(): boolean {
  const present = existsSync(NGINX) && existsSync(NJS_MODULE);
  if (!present && process.env.CI === "true") {
    throw new Error(`${NGINX} or ${NJS_MODULE} is missing: see .ci/system-packages`);
  }
  return present;
}

/** A self-signed certificate for `spi.example`, for the rows sent over https. */
export async function selfSignedCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  await run("openssl", [
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"],
    ...["-subj", "/CN=spi.example", "-keyout", key, "-out", cert],
  ]);
  return { cert, key };
}
