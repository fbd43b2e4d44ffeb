import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  digestOfKey,
  KeysError,
  MissingKeysError,
  type ParsedKeys,
  parseKeysFile,
  parseKeysList,
  resolveApiKeys,
} from "../../src/edge/apiKeys.js";
import { UsageError } from "../../src/exit/spiStaticError.js";
import { DATA_DIR } from "./builtSite.js";

const DEMO_KEY = "demo-aare-radio-0123456789";

function problemsOf({ problems }: ParsedKeys): string[] {
  return problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.field}: ${p.message}`);
}

describe("API keys", () => {
  it("are digested with SHA-256, lowercase hex", () => {
    expect(digestOfKey("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("are read one per line from a keys file, skipping comments and blank lines", () => {
    const text = "# keys for the nightly build\n\n  first-key-000000001  \nsecond-key+/0000002==\n";
    expect(parseKeysFile(text, "keys.txt")).toEqual({
      keys: ["first-key-000000001", "second-key+/0000002=="],
      problems: [],
    });
  });

  it("in a keys file, every bad line is reported with its position", () => {
    const text = "good-key-0000000001\n  short\nhas space in it 000000\nkey,with,commas,000000\n";
    expect(parseKeysFile(text, "keys.txt").keys).toEqual(["good-key-0000000001"]);
    expect(problemsOf(parseKeysFile(text, "keys.txt"))).toEqual([
      "keys.txt:2:3 key: a key needs at least 16 characters",
      "keys.txt:3:1 key: a key may hold only letters, digits and - . _ ~ + / (and trailing =)",
      "keys.txt:4:1 key: a key may hold only letters, digits and - . _ ~ + / (and trailing =)",
    ]);
  });

  it("stop the build on a bad line, naming the keys file (a dropped key would lock a client out)", async () => {
    const keysFile = join(await mkdtemp(join(tmpdir(), "spi-keys-")), "keys.txt");
    await writeFile(keysFile, "good-key-0000000001\nshort\n");
    const refused = await resolveApiKeys(DATA_DIR, { keysFile }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KeysError);
    expect((refused as KeysError).exitCode).toBe(2);
    expect((refused as KeysError).describe()).toEqual([
      `${keysFile}:2:1 key: a key needs at least 16 characters`,
      `spi-static: 1 error in ${keysFile}; nothing was written`,
    ]);
  });

  it("are read comma-separated from SPI_API_KEYS", () => {
    expect(
      parseKeysList(" first-key-000000001 , second-key-00000002,", "SPI_API_KEYS").keys,
    ).toEqual(["first-key-000000001", "second-key-00000002"]);
    expect(problemsOf(parseKeysList("first-key-000000001,tiny", "SPI_API_KEYS"))).toEqual([
      "SPI_API_KEYS:1:1 [1]: a key needs at least 16 characters",
    ]);
  });

  it("come from --keys-file first, then SPI_API_KEYS, then the data folder's demo key", async () => {
    const dir = await mkdtemp(join(tmpdir(), "spi-keys-"));
    const keysFile = join(dir, "keys.txt");
    await writeFile(keysFile, "file-key-0000000001\n");
    const list = "list-key-0000000001";
    const fromFile = await resolveApiKeys(DATA_DIR, { keysFile, keysList: list });
    expect(fromFile).toEqual({
      digests: [digestOfKey("file-key-0000000001")],
      origin: keysFile,
      demo: false,
    });
    const fromList = await resolveApiKeys(DATA_DIR, { keysList: list });
    expect(fromList).toEqual({ digests: [digestOfKey(list)], origin: "SPI_API_KEYS", demo: false });
    const demo = await resolveApiKeys(DATA_DIR, { keysList: "  " });
    expect(demo).toEqual({
      digests: [digestOfKey(DEMO_KEY)],
      origin: join(DATA_DIR, "keys.demo.txt"),
      demo: true,
    });
    await writeFile(join(dir, "keys.dev.txt"), "# dev\ndev-key-00000000001\n");
    expect(await resolveApiKeys(dir, {})).toEqual({
      digests: [digestOfKey("dev-key-00000000001")],
      origin: join(dir, "keys.dev.txt"),
      demo: true,
    });
  });

  it("without any key, refuse: the worker would accept none, unless the edge secret brings them", async () => {
    const dir = await mkdtemp(join(tmpdir(), "spi-no-keys-"));
    await expect(resolveApiKeys(dir, { keysList: "" })).rejects.toThrow(
      new MissingKeysError(
        "no API keys: the worker would refuse every key. Give --keys-file <path> or SPI_API_KEYS, " +
          "or --keys-at-edge when the deployment sets the API_KEY_SHA256 secret",
      ),
    );
    expect(await resolveApiKeys(dir, { atEdge: true })).toEqual({
      digests: [],
      origin: "API_KEY_SHA256 at the edge",
      demo: false,
    });
  });

  it("a missing or unreadable --keys-file is a usage error naming it, not an empty key list", async () => {
    const missing = await resolveApiKeys(DATA_DIR, { keysFile: "/nonexistent/keys.txt" }).catch(
      (error: unknown) => error,
    );
    expect(missing).toBeInstanceOf(UsageError);
    expect((missing as UsageError).exitCode).toBe(2);
    expect((missing as UsageError).message).toBe("--keys-file /nonexistent/keys.txt: no such file");
    await expect(resolveApiKeys(DATA_DIR, { keysFile: tmpdir() })).rejects.toThrow(
      `--keys-file ${tmpdir()}: is a folder, not a keys file`,
    );
  });
});
