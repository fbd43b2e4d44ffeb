import { serialize } from "node:v8";
import { parentPort } from "node:worker_threads";
import { debugging } from "../../debug/debugLog.js";
import { heapFigures } from "../../debug/memoryPhases.js";
import { validateInputText } from "../schema/validateInputText.js";
import { textOf } from "./dataFolder.js";
import type { ParseRequest, ParseResponse } from "./parseInWorkers.js";

/** A parse worker (parseInWorkers.ts): validates the data files it is sent, one at a time. */
const port = parentPort;
if (!port) throw new Error("parseWorker.js runs as a worker thread, started by parseInWorkers.js");
port.on("message", ({ id, kind, file, bytes }: ParseRequest) => {
  const decoded = textOf(bytes);
  if (!("text" in decoded)) {
    port.postMessage({ id, unreadable: decoded.unreadable } satisfies ParseResponse);
    return;
  }
  const { input, problems } = validateInputText(kind, file, decoded.text);
  const serialized = input === undefined ? undefined : serialize(input);
  const response: ParseResponse = { id, problems, serialized };
  if (debugging("memory")) response.heap = heapFigures();
  // A buffer of its own is handed over, not copied; one in a shared pool would be copied.
  const own = serialized && serialized.byteLength === serialized.buffer.byteLength;
  port.postMessage(response, own ? [serialized.buffer as ArrayBuffer] : []);
});
