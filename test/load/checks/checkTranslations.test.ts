import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadBroadcaster } from "../../../src/load/loadBroadcaster.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-translations-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const minimalService = await readFile("test/fixtures/minimal/services/one.yaml", "utf8");
const minimalSchedule = await readFile("test/fixtures/minimal/schedules/one.yaml", "utf8");

let folders = 0;
/** The minimal folder with lines added to its service and schedule; its problems as text. */
async function problemsWith(service: string, schedule = ""): Promise<string[]> {
  const dir = join(root, String(folders++));
  await cp("test/fixtures/minimal", dir, { recursive: true });
  await writeFile(join(dir, "services/one.yaml"), `${minimalService}${service}`);
  await writeFile(join(dir, "schedules/one.yaml"), `${minimalSchedule}${schedule}`);
  const { problems } = await loadBroadcaster(dir);
  return problems.map((p) => `${p.line}:${p.column} ${p.field}: ${p.severity} ${p.message}`);
}

describe("translations", () => {
  it("loads a service's and a show's texts in other languages, in the order written", async () => {
    const dir = join(root, "valid");
    await cp("test/fixtures/minimal", dir, { recursive: true });
    await writeFile(
      join(dir, "services/one.yaml"),
      `${minimalService}translations:\n  fr: { name: { short: Un, long: Radio Un }, keywords: [pop] }\n  de-CH: { description: { short: Pop für alle. } }\n`,
    );
    await writeFile(
      join(dir, "schedules/one.yaml"),
      minimalSchedule.replace(
        "name: { long: The Morning }",
        "name: { long: The Morning }\n    translations: { fr: { name: { long: Le Matin } } }",
      ),
    );
    const { broadcaster, problems } = await loadBroadcaster(dir);
    expect(problems).toEqual([]);
    const one = broadcaster?.services[0];
    expect(Object.keys(one?.translations ?? {})).toEqual(["fr", "de-CH"]);
    expect(one?.translations.fr?.name).toEqual({ short: "Un", long: "Radio Un" });
    expect(one?.schedule.shows.morning?.translations?.fr?.name?.long).toBe("Le Matin");
  });

  it("asks a service in another language than the provider's for names in the provider's (§6.5)", async () => {
    expect(await problemsWith("language: de\n")).toEqual([
      "11:11 language: error is de, not the provider's en: TS 102 818 §6.5 asks for a service's shortName and mediumName in the SI document's language, the provider's (en); give them as translations.en.name (short and medium, the same names if they do not change)",
    ]);
    expect(
      await problemsWith("language: de\ntranslations:\n  en: { name: { long: Radio One } }\n"),
    ).toEqual([
      "13:15 translations.en.name.short: error is required: TS 102 818 §6.5 asks for a service's shortName and mediumName in the SI document's language, the provider's (en)",
    ]);
    expect(
      await problemsWith(
        "language: de\ntranslations:\n  en-GB: { name: { short: One, long: Radio One } }\n",
      ),
    ).toEqual([]);
    // A regional variant of the provider's language is that language.
    expect(await problemsWith("language: en-CH\n")).toEqual([]);
  });

  it("refuses a translation into the owner's own language and a language given twice", async () => {
    expect(
      await problemsWith("translations:\n  en: { keywords: [pop] }\n  de-CH: {}\n  de-ch: {}\n"),
    ).toEqual([
      "12:3 translations.en: error is the service's own language (en): write these texts in the fields beside translations",
      "14:3 translations.de-ch: error is the language of translations.de-CH again (tags ignore case); merge the two",
    ]);
    const show = "    translations: { de: { name: { long: Der Morgen } } }";
    expect(
      await problemsWith(
        "language: de\ntranslations: { en: { name: { short: One, long: Radio One } } }\n",
        "",
      ),
    ).toEqual([]);
    const schedule = minimalSchedule.replace(
      "name: { long: The Morning }",
      `name: { long: The Morning }\n${show}`,
    );
    const dir = join(root, "show-own-language");
    await cp("test/fixtures/minimal", dir, { recursive: true });
    await writeFile(
      join(dir, "services/one.yaml"),
      `${minimalService}language: de\ntranslations: { en: { name: { short: One, long: Radio One } } }\n`,
    );
    await writeFile(join(dir, "schedules/one.yaml"), schedule);
    const { problems } = await loadBroadcaster(dir);
    expect(problems.map((p) => `${p.line}:${p.column} ${p.field}: ${p.message}`)).toEqual([
      "4:21 shows.morning.translations.de: is the show's own language (de): write these texts in the fields beside translations",
    ]);
  });

  it("checks a translation's fields like the owner's, with their positions", async () => {
    expect(
      await problemsWith(
        "translations:\n  fr: { name: { short: Radio Un Plus } }\n  français: { nom: Un }\n  de: { nam: {} }\n",
      ),
    ).toEqual([
      "12:24 translations.fr.name.short: error is 13 characters long; at most 8 characters are allowed",
      '13:3 translations.français: error "français" is not a language tag (e.g. en, de-CH; subtags of at most 8 letters or digits)',
      '14:9 translations.de.nam: error is not a known field; did you mean "name"?',
    ]);
  });

  it("warns when a translated long name stands in for a missing medium one", async () => {
    expect(
      await problemsWith(
        "translations:\n  fr: { name: { short: Un, long: La radio numéro un de Suisse } }\n",
      ),
    ).toEqual([
      '12:15 translations.fr.name.medium: warning is not given, so the long name (28 characters) is cut to 16 with "…" for mediumName',
    ]);
  });
});
