import { SpiStaticError } from "../exit/spiStaticError.js";

/**
 * The output folder could not be changed. Names the file the build was working on and the
 * system's reason; every file already in place is still complete (writes are atomic).
 */
export class PublishError extends SpiStaticError {
  readonly kind = "failure";

  constructor(
    readonly path: string,
    readonly action: "write" | "remove" | "read",
    cause: unknown,
  ) {
    super(`cannot ${action} ${path}: ${describeCause(cause, path)}`, { cause });
    this.name = "PublishError";
  }

  override describe(): string[] {
    return [`spi-static: ${this.message}; the files already published are intact`];
  }

  override toJsonReport(): Record<string, unknown> {
    return { error: this.message, path: this.path };
  }

  /** The system error code, e.g. ENOSPC, when there is one. */
  get code(): string | undefined {
    return systemError(this.cause)?.code;
  }
}

interface SystemError {
  code: string;
  message: string;
  path?: string;
}

function systemError(error: unknown): SystemError | undefined {
  if (error instanceof Error && typeof (error as { code?: unknown }).code === "string") {
    return error as unknown as SystemError;
  }
  return undefined;
}

/** "no space left on device (ENOSPC)", plus the path the system names when it is another one. */
function describeCause(cause: unknown, path: string): string {
  const error = systemError(cause);
  if (!error) return cause instanceof Error ? cause.message : String(cause);
  // Node's messages read "ENOSPC: no space left on device, write '/x'": keep the reason only.
  const reason = /^[A-Z0-9_]+: ([^,]+)/.exec(error.message)?.[1] ?? error.message;
  const where =
    error.path && !error.path.includes(".spi-static.tmp") && error.path !== path
      ? ` at ${error.path}`
      : "";
  return `${reason} (${error.code})${where}`;
}
