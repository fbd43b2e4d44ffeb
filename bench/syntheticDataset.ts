import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";

/**
 * A broadcaster of any size, shaped like the example data but denser: every service has a full
 * 24-hour grid of half-hour slots (48 programmes a day), and every show has names, both
 * descriptions, images at 3 sizes, a website, a genre and a group. Every airing the build lays
 * out at the benchmark's default clock (2026-11-15 to 2026-12-01) has an episode with its own
 * names and descriptions, in one file per week under episodes/<service id>/, as a scheduling
 * system would write them: no programme element is shared between airings of a show.
 * Deterministic, so two runs of the benchmark build the same bytes.
 */
export const SYNTHETIC_HOST = "rdns.bench.example";
/** The development key the dataset's builds accept (data/keys.dev.txt). */
export const SYNTHETIC_KEY = "bench-dev-key-0000000001";

const AUTHORITY = "bench.example";
const SHOWS_PER_SERVICE = 16;
const SLOTS_PER_DAY = 48;
/** The days a build at the benchmark's default clock lays out, a week per episode file. */
const EPISODE_WEEKS = ["2026-11-15", "2026-11-22", "2026-11-29"];
const EPISODE_DAYS_END = "2026-12-01";
/** The one special: on this date it covers part of the grid (see schedule()). */
const SPECIAL = { date: "2026-11-25", start: "19:15", end: "21:45", show: "show-15" };
const IMAGE_SIZES = ["320x240", "600x600", "1400x1400"];
/** Most services follow the provider's zone; some have their own, as an aggregator's would. */
const ZONES = [
  "Europe/Zurich",
  "Europe/Zurich",
  "Europe/Zurich",
  "Europe/London",
  "America/New_York",
];

const LOREM =
  "Music, conversation and the stories of the day, presented live from the studio with news " +
  "on the hour, traffic and weather every twenty minutes, and the listeners' requests";

export function syntheticServiceId(index: number): string {
  return `s${String(index).padStart(4, "0")}`;
}

/**
 * Writes provider.yaml, services/*.yaml, schedules/*.yaml for `services` services and a
 * development key (as `spi-static init` does: a build needs a key) into `dataDir`.
 */
/**
 * A broadcaster's dataset gives every airing its own episode; an aggregator's (a platform
 * carrying thousands of services, `--aggregator`) one airing in AGGREGATOR_EPISODE_EVERY, as
 * platforms carry fewer episode details: the same grid in a fraction of the disk.
 */
export type DatasetShape = "broadcaster" | "aggregator";
export const AGGREGATOR_EPISODE_EVERY = 8;

export async function writeSyntheticDataset(
  dataDir: string,
  services: number,
  shape: DatasetShape = "broadcaster",
): Promise<void> {
  await mkdir(join(dataDir, "services"), { recursive: true });
  await mkdir(join(dataDir, "schedules"), { recursive: true });
  await writeFile(join(dataDir, "provider.yaml"), stringify(provider()));
  await writeFile(join(dataDir, "keys.dev.txt"), `${SYNTHETIC_KEY}\n`);
  for (let i = 0; i < services; i++) {
    const id = syntheticServiceId(i);
    await writeFile(join(dataDir, "services", `${id}.yaml`), stringify(service(i)));
    await writeFile(join(dataDir, "schedules", `${id}.yaml`), stringify(schedule(id)));
    await mkdir(join(dataDir, "episodes", id), { recursive: true });
    for (const week of EPISODE_WEEKS) {
      await writeFile(
        join(dataDir, "episodes", id, `${week}.yaml`),
        stringify({ episodes: episodesOfWeek(id, week, shape) }),
      );
    }
  }
}

/**
 * A scheduler's edit to one service: a show used every day gets a new website (its episodes
 * give every airing its own name), so each of the service's PI documents changes and no other
 * document does.
 */
export async function editOneShow(dataDir: string, serviceIndex: number): Promise<void> {
  const id = syntheticServiceId(serviceIndex);
  const file = join(dataDir, "schedules", `${id}.yaml`);
  const text = await readFile(file, "utf8");
  const edited = text.replace(`/${id}/show-0\n`, `/${id}/show-0-edited\n`);
  if (edited === text) throw new Error(`${file} has no show 0 to edit`);
  await writeFile(file, edited);
}

/**
 * A careless or hostile schedule: service `serviceIndex`'s schedule gets compact shows that no
 * slot uses (each one a warning to locate) until the file holds about `bytes`. Returns how many.
 */
export async function addUnusedShows(
  dataDir: string,
  serviceIndex: number,
  bytes: number,
): Promise<number> {
  const file = join(dataDir, "schedules", `${syntheticServiceId(serviceIndex)}.yaml`);
  const text = await readFile(file, "utf8");
  if (!text.startsWith("shows:\n")) throw new Error(`${file} does not start with its shows`);
  const lines: string[] = [];
  let size = text.length;
  while (size < bytes) {
    const line = `  spare-${lines.length}:\n    name: { long: Spare ${lines.length} }\n`;
    size += line.length;
    lines.push(line);
  }
  await writeFile(file, `shows:\n${lines.join("")}${text.slice("shows:\n".length)}`);
  return lines.length;
}

function provider() {
  return {
    name: { short: "Bench", medium: "Bench Radio", long: "Bench Radio Aggregator" },
    description: { short: "A synthetic broadcaster for the spi-static benchmark." },
    originator: "Bench Radio Aggregator",
    language: "en",
    timeZone: "Europe/Zurich",
    radiodnsHost: SYNTHETIC_HOST,
    cridAuthority: AUTHORITY,
    piMarginHours: 6,
    logos: ["32x32", "112x32", "128x128", "320x240", "600x600"].map((size) => ({
      url: `https://img.bench.example/logos/provider/${size}.png`,
      size,
    })),
    links: [{ uri: "https://www.bench.example/", mimeValue: "text/html", description: "Website" }],
    keywords: ["radio", "benchmark"],
  };
}

function service(index: number) {
  const id = syntheticServiceId(index);
  // A DAB SId and an FM PI code of one country have few values (4100 to 4fff here): each block
  // of 3,840 services is another ensemble, its FM services on another frequency, so 10,000 fit.
  const block = Math.floor(index / 0xf00);
  const code = `4${(0x100 + (index % 0xf00)).toString(16)}`;
  const eid = (0x4fe1 + block).toString(16);
  const frequency = String(9870 - 20 * block).padStart(5, "0");
  const zone = ZONES[index % ZONES.length] as string;
  return {
    id,
    name: { short: `B${index}`, medium: `Bench ${index}`, long: `Bench Radio ${index}` },
    description: {
      short: `Bench Radio ${index}: ${LOREM.slice(0, 80)}.`,
      long: `${LOREM}. ${LOREM}.`,
    },
    ...(zone === "Europe/Zurich" ? {} : { timeZone: zone }),
    logos: ["32x32", "112x32", "128x128", "320x240", "600x600"].map((size) => ({
      url: `https://img.bench.example/logos/${id}/${size}.png`,
      size,
    })),
    genres: [{ href: "urn:tva:metadata:cs:ContentCS:2011:3.6.1", name: "Pop", type: "main" }],
    keywords: ["music", "news", `bench${index}`],
    links: [
      { uri: `https://www.bench.example/${id}`, mimeValue: "text/html", description: "Website" },
    ],
    // SId and PI code start with Switzerland's country id 4, as GCC 4e1 requires.
    bearers: {
      dab: [{ id: `dab:4e1.${eid}.${code}.0`, mimeValue: "audio/aacp" }],
      ...(index % 2 === 0 ? { fm: [{ id: `fm:4e1.${code}.${frequency}` }] } : {}),
    },
    streams: [
      {
        url: `https://stream.bench.example/${id}/aac_128.aac`,
        mimeValue: "audio/aacp",
        bitrate: 128,
      },
    ],
  };
}

function schedule(id: string) {
  const shows: Record<string, unknown> = {};
  for (let s = 0; s < SHOWS_PER_SERVICE; s++) {
    shows[`show-${s}`] = {
      name: {
        short: `Show ${s}`,
        medium: `Show ${s} live`,
        long: `Show ${s} of ${id}, live from the studio`,
      },
      description: {
        short: `Show ${s}: ${LOREM.slice(0, 100)}.`,
        long: `Show ${s} on ${id}. ${LOREM}. ${LOREM}.`,
      },
      images: IMAGE_SIZES.map((size) => ({
        url: `https://img.bench.example/shows/${id}/show-${s}/${size}.jpg`,
        size,
      })),
      website: `https://www.bench.example/${id}/show-${s}`,
      genres: [{ href: "urn:tva:metadata:cs:ContentCS:2011:3.6.1", name: "Pop" }],
      group: `crid://${AUTHORITY}/${id}/group-${s}`,
    };
  }
  return {
    shows,
    grid: [
      { days: "mon-fri", slots: slots(0) },
      { days: ["sat", "sun"], slots: slots(5) },
    ],
    dates: [
      {
        date: SPECIAL.date,
        specials: [{ start: SPECIAL.start, end: SPECIAL.end, show: SPECIAL.show }],
      },
    ],
  };
}

/** Weekdays run slots(0), weekends slots(5): each a show every half hour. */
function slots(offset: number): { start: string; show: string }[] {
  return Array.from({ length: SLOTS_PER_DAY }, (_, i) => {
    const minutes = i * 30;
    const start = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${minutes % 60 ? "30" : "00"}`;
    return { start, show: `show-${(i + offset) % SHOWS_PER_SERVICE}` };
  });
}

/**
 * An episode for each airing (or each `every`th) of the seven days from `week` (up to the last
 * day laid out): the grid's slots, where the special cuts them its own start and the start of
 * what it leaves.
 */
function episodesOfWeek(id: string, week: string, shape: DatasetShape) {
  const every = shape === "aggregator" ? AGGREGATOR_EPISODE_EVERY : 1;
  const episodes: Record<string, unknown>[] = [];
  for (let day = 0; day < 7; day++) {
    const date = new Date(Date.parse(`${week}T00:00:00Z`) + day * 86_400_000);
    const iso = date.toISOString().slice(0, 10);
    if (iso > EPISODE_DAYS_END) break;
    const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
    let airings = slots(weekend ? 5 : 0);
    if (iso === SPECIAL.date) {
      // A slot the special covers is cut away; the one it ends inside resumes at its end.
      const [from, to] = [minutesOf(SPECIAL.start), minutesOf(SPECIAL.end)];
      airings = airings.flatMap((airing) => {
        const start = minutesOf(airing.start);
        if (start < from || start >= to) return [airing];
        return start + 30 > to ? [{ ...airing, start: SPECIAL.end }] : [];
      });
      airings.push({ start: SPECIAL.start, show: SPECIAL.show });
    }
    for (const { start, show } of airings.filter((_, index) => index % every === 0)) {
      const label = `${iso} ${start}`;
      episodes.push({
        date: iso,
        start,
        show,
        name: {
          short: `Ep ${start}`,
          medium: `${show} ${start}`,
          long: `${label}: ${show} on ${id}`,
        },
        description: {
          short: `${label}: today's ${show}. ${LOREM.slice(0, 100)}.`,
          long: `${label}: today's ${show} on ${id}. ${LOREM}. ${LOREM}.`,
        },
      });
    }
  }
  return episodes;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
