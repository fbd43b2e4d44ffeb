import { gccProblem, parseBroadcastBearer } from "../formats/radiodnsBearer.js";
import type { ServiceInput } from "../schema/serviceSchema.js";
import { formatSourceRef, type InputProblem, type SourceRef } from "../text/inputProblem.js";
import type { YamlFile } from "../text/readYamlFile.js";

/**
 * A service's broadcast bearers (DAB, FM, HD Radio, DRM, AMSS) as RadioDNS needs them: a GCC
 * that agrees with the SId or PI code (a receiver builds the lookup from those), an FM frequency
 * in the broadcast bands, and no bearer that another service, or this one, already claims — a radio tuned to it must find one service and one PI path; and a
 * warning for a constant-bitrate stream that does not say its bitrate.
 * `inUse` holds where each bearer was first given, across the services read so far, located
 * only if a message needs it: locating builds the file's yaml Document, which a valid file never
 * needs otherwise.
 */
export function checkBearers(
  input: ServiceInput,
  file: YamlFile,
  inUse: Map<string, () => SourceRef>,
): InputProblem[] {
  const problems: InputProblem[] = [];
  for (const system of ["dab", "fm", "hd", "drm", "amss"] as const) {
    for (const [index, { id }] of (input.bearers?.[system] ?? []).entries()) {
      const path = ["bearers", system, index, "id"];
      const bearer = parseBroadcastBearer(id);
      const wrongGcc = bearer && gccProblem(bearer);
      if (wrongGcc) problems.push(file.error(path, wrongGcc));
      const wrongFrequency = bearer?.system === "fm" && frequencyProblem(bearer.frequency);
      if (wrongFrequency) problems.push(file.error(path, wrongFrequency));
      const earlier = inUse.get(id);
      if (earlier) {
        problems.push(file.error(path, `${id} is also claimed at ${formatSourceRef(earlier())}`));
      } else {
        inUse.set(id, () => file.locate(path));
      }
    }
  }
  for (const [index, stream] of (input.streams ?? []).entries()) {
    if (stream.bitrate === undefined && isConstantBitrate(stream.mimeValue, stream.url)) {
      problems.push(
        file.warning(
          ["streams", index],
          `an ${stream.mimeValue} stream without bitrate: TS 102 818 V3.5.1 §5.11.4 recommends it for a constant-bitrate stream (leave it out only for HLS, DASH or VBR)`,
        ),
      );
    }
  }
  return problems;
}

/** Playlists (HLS, DASH) carry several bitrates: §5.11.4 recommends no bitrate for them. */
function isConstantBitrate(mimeValue: string, url: string): boolean {
  const playlist =
    /mpegurl|dash\+xml|x-scpls|ogg/i.test(mimeValue) || /\.(m3u8?|mpd|pls)(\?|$)/i.test(url);
  return !playlist;
}

/**
 * FM broadcasting lies within 65.8–108 MHz (the OIRT band from 65.8, Japan's from 76, the
 * CCIR band to 108): a frequency outside names a lookup no receiver will make.
 */
const FM_BAND = { from: 6580, to: 10800 };

function frequencyProblem(frequency: string): string | undefined {
  const tens = Number(frequency);
  if (tens >= FM_BAND.from && tens <= FM_BAND.to) return undefined;
  const mhz = (tens / 100).toFixed(2);
  return `frequency ${frequency} is ${mhz} MHz, outside the FM broadcast bands (65.80–108.00 MHz; written in 10 kHz, 95.8 MHz is 09580)`;
}
