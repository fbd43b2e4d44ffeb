import { UsageError } from "../exit/spiStaticError.js";
import { SITE_TABLES_GLOBAL } from "./njsModule.js";

/** The files `spi-static nginx` writes into its folder (outside the served output folder). */
export const NGINX_FILES = {
  /** A whole `server {}` to include from nginx.conf's `http {}`. */
  server: "spi-static.conf",
  /** The directives inside it, to include in a `server {}` of one's own (TLS, logging, …). */
  api: "spi-static-api.conf",
  /** The njs module with the rules. */
  module: "spi-static.js",
  /** The site's tables of services and bearers, which nginx parses once (njsModule.ts). */
  tables: "spi-static-site.json",
} as const;

/**
 * The js_var and named location through which nginx sends a document the rules answered 200
 * with (njsAdapter.ts): sendfile from the served folder instead of njs reading and copying it.
 */
export const SEND_FILE = "spi_static_file";

export interface ServerConfigOptions {
  /** Absolute folder the files are in. */
  dir: string;
  /** nginx's `listen` value: `address:port`, `port`, `[::1]:port`. */
  listen: string;
  /** nginx's `server_name`; `_` for any. */
  serverName: string;
}

/**
 * A path for the directives that take one literally (js_import, js_preload_object, include):
 * `$`, spaces, `;` and braces are text inside the quotes (checkServerConfig refuses the rest).
 */
function quoted(path: string): string {
  return `"${path}"`;
}

/**
 * What nginx would read otherwise than as written, refused with the reason: a folder whose path
 * `include` takes for a pattern or njs cannot import from (it writes the path into a JavaScript
 * string unescaped, and refuses quotes), a server name that is no host name, wildcard name or regular expression
 * (a `\` at its end would swallow the `;` and the include after it).
 */
export function checkServerConfig({ dir, serverName }: ServerConfigOptions): void {
  if (/[*?["'\\]/.test(dir)) {
    throw new UsageError(
      `--dir ${dir}: nginx reads *, ? and [ in an include as a pattern, and njs loads no module from a path with ', " or \\; give a folder without them`,
    );
  }
  const HOST_NAME = /^(\*\.|\.)?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\.\*)?$/;
  for (const name of serverName.split(/ +/)) {
    const regex = name.startsWith("~") && !name.endsWith("\\");
    if (name !== "_" && !regex && !HOST_NAME.test(name)) {
      throw new UsageError(
        `--server-name ${name}: not a host name (spi.example.org), wildcard name (*.example.org) or regular expression (~^spi\\.example\\.org$)`,
      );
    }
  }
}

/** `server_name`'s names as nginx reads them back: a regular expression's `\` doubled. */
function serverNames(serverName: string): string {
  return serverName.replace(/\\/g, "\\\\");
}

/**
 * Every request goes to the rules (one location, `js_content`): nginx serves no file on its own,
 * so `_keyed/`, `_spi-static/` and this folder are unreachable whatever the path. A document the
 * rules answer 200 with, nginx then sends from the named location (unreachable from outside):
 * the file the rules chose, with no conditional handling, ranges or type of nginx's own, so the
 * answer is the rules'. nginx's conditional-request filter stays out of it
 * (`if_modified_since off`): the rules answer 304.
 */
export function renderApiConfig({ dir }: ServerConfigOptions): string {
  return `# Written by \`spi-static nginx\`: do not edit, run it again instead.
# The SPI 3.1 API of one output folder: include inside a server {} block.
js_import spi_static from ${quoted(`${dir}/${NGINX_FILES.module}`)};
js_preload_object ${SITE_TABLES_GLOBAL} from ${quoted(`${dir}/${NGINX_FILES.tables}`)};
js_var $${SEND_FILE};

location / {
    if_modified_since off;
    types { }
    default_type "";
    js_content spi_static.handle;
}

# A document the rules answered 200 with, sent by nginx itself (only the rules send here). The
# variable holds its whole path: the served folder's path is never read as nginx variables.
location @${SEND_FILE} {
    root /;
    try_files $${SEND_FILE} =404;
    if_modified_since off;
    max_ranges 0;
    sendfile on;
    types { }
    default_type "";
}

# Requests nginx refuses itself (a %00 in the path) go to the rules too, which answer them as
# the worker does (from the request line: nginx read no headers).
error_page 400 = /;
`;
}

export function renderServerConfig(options: ServerConfigOptions): string {
  return `# Written by \`spi-static nginx\`: do not edit, run it again instead.
# Include from the http {} block of nginx.conf. For TLS, write your own server {} with
# listen 443 ssl and your certificate, and include ${NGINX_FILES.api} inside it instead.
server {
    listen ${options.listen};
    server_name ${serverNames(options.serverName)};

    include ${quoted(`${options.dir}/${NGINX_FILES.api}`)};
}
`;
}
