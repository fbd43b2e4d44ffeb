/**
 * Data files validated by an earlier build, kept by what they were validated from: the program,
 * the kind of file and its exact bytes. A file whose bytes are unchanged gives its validated value
 * without being parsed again (a nightly build changes no data file at all). The load stage asks
 * and fills it; where it is kept is the caller's (build/inputCacheFolder.ts keeps it in
 * out/_spi-static/).
 */
export interface InputCache {
  /** The name a file's value is kept under, from its digest (the reader's: its kind and bytes). */
  keyOf(fileDigest: string): string;
  /** Whether a value is kept under `key` (without reading it); counts as using it. */
  has(key: string): boolean;
  /**
   * The value kept under `key`, serialized with node:v8; undefined when there is none. Valid
   * until the next read (a folder reads into a ReusedBuffer): deserialize it at once.
   */
  read(key: string): Uint8Array | undefined;
  /** Keeps a value (serialized with node:v8). Never fails the build: a cache is only a shortcut. */
  write(key: string, serialized: Uint8Array): void;
}
