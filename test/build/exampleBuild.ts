/** What the publish tests build: the compiled CLI on the example data, on two nights in a row. */
export const CLI = new URL("../../dist/cli/main.js", import.meta.url).pathname;
export const EXAMPLE = new URL("../../data", import.meta.url).pathname;
export const NOW = "2026-11-23T03:00:00Z";
export const NEXT_NIGHT = "2026-11-24T03:00:00Z";
/** One service's PI folder in out/. */
export const SERVICE_DIR = "radiodns/spi/3.1/id/rdns.aareradio.example/news";
