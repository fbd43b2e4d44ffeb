import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/runCli.js";
import { DATA_DIR } from "../edge/builtSite.js";

/** Debian's chromium (.ci/system-packages); Playwright's own browser downloads are never used. */
const CHROMIUM = "/usr/bin/chromium";
const CLI = resolve("dist/cli/main.js");
/** Screenshots for people to look at; git-ignored. */
const ARTIFACTS = resolve("test-artifacts/preview");
const KEY = "demo-aare-radio-0123456789";
/** Monday 23 November 2026, 09:00 in Zurich; Bern's onion market special runs 05:00–11:00. */
const NOW = "2026-11-23T08:00:00Z";
/** Sunday 25 October 2026: Zurich leaves summer time, the day has 25 hours. */
const DST_NOW = "2026-10-25T09:00:00Z";
const BERN_PI = "radiodns/spi/3.1/id/rdns.aareradio.example/bern/20261123_PI.xml";

interface Dev {
  dir: string;
  origin: string;
  child: ChildProcess;
  output: () => string;
}

/** `spi-static dev` on a fresh copy of the example data, with a fixed clock. */
async function startDev(now: string): Promise<Dev> {
  const dir = await mkdtemp(join(tmpdir(), "spi-preview-page-"));
  await cp(DATA_DIR, join(dir, "data"), { recursive: true });
  const child = spawn(
    process.execPath,
    [CLI, "dev", "--data", "data", "--out", "out", "--port", "0", "--now", now],
    { cwd: dir },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const origin = await new Promise<string>((done, fail) => {
    child.stdout?.on("data", () => {
      const url = /programme grid: (http:\/\/\S+?)\/ /.exec(output)?.[1];
      if (url) done(url);
    });
    child.on("exit", () => fail(new Error(`dev exited early:\n${output}`)));
  });
  return { dir, origin, child, output: () => output };
}

async function stopDev(dev: Dev | undefined) {
  if (!dev || dev.child.exitCode !== null) return;
  const exited = new Promise((done) => dev.child.on("exit", done));
  dev.child.kill("SIGTERM");
  await exited;
}

let browser: BrowserContext | undefined;
let dev: Dev | undefined;
let dst: Dev | undefined;
/** Requests the page tried to send anywhere but the preview: it must work offline. */
const offsite: string[] = [];

async function openPage(target: Dev): Promise<Page> {
  const page = await (browser as BrowserContext).newPage();
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(`${target.origin}/`)) return route.continue();
    offsite.push(url);
    return route.abort();
  });
  await page.goto(`${target.origin}/`);
  await page.locator("button.block").first().waitFor();
  return page;
}

const blockLabels = (page: Page, service: string) =>
  page
    .locator(`.row[data-service="${service}"] .block`)
    .evaluateAll((blocks) =>
      blocks.map((b) => [
        b.querySelector(".time")?.textContent,
        b.querySelector(".name")?.textContent,
      ]),
    );

const hasChromium = existsSync(CHROMIUM);
const inCi = /^(true|1)$/i.test(process.env.CI ?? "");

// In CI a missing browser is a failure, not a skip: the preview would go untested.
describe.skipIf(!hasChromium && !inCi)("the EPG preview in headless Chromium", () => {
  beforeAll(async () => {
    if (!hasChromium)
      throw new Error(`${CHROMIUM} is missing: run bash .ci/install-system-packages`);
    await mkdir(ARTIFACTS, { recursive: true });
    const userDataDir = await mkdtemp(join(tmpdir(), "spi-chromium-"));
    [dev, dst, browser] = await Promise.all([
      startDev(NOW),
      startDev(DST_NOW),
      chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        headless: true,
        viewport: { width: 1400, height: 900 },
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
        ],
      }),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([stopDev(dev), stopDev(dst)]);
  });

  it("shows today's programmes of every service, marks now, the special and the zone, and matches the PI documents", async () => {
    const target = dev as Dev;
    const page = await openPage(target);
    expect(await page.locator('.days button[aria-current="date"]').textContent()).toBe(
      "Mon 23.11. (today)",
    );
    expect(await page.locator("#clock").textContent()).toContain("09:00 UTC+01:00 Europe/Zurich");
    expect((await blockLabels(page, "bern")).slice(0, 4)).toEqual([
      ["23:00 (2026-11-22)–05:00", "Bern Overnight"],
      ["05:00–11:00", "ON AIRSPECIALZibelemärit Live"],
      ["11:00–12:00", "Bern Mornings"],
      ["12:00–13:00", "Lunchtime Local"],
    ]);
    const bern = page.locator('.row[data-service="bern"]');
    expect(await bern.locator(".service").textContent()).toContain("Europe/Zurich (UTC+01:00)");
    expect(await bern.locator(".block.special.on-air").count()).toBe(1);
    expect(await page.locator(".now-line").count()).toBe(5);
    // WCAG AA: every programme's text at least 4.5:1 against its block.
    const contrasts = await page.locator("button.block").evaluateAll((blocks) => {
      const luminance = (colour: string) => {
        const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
          const c = Number(v) / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        }) as [number, number, number];
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      return blocks.flatMap((block) =>
        [...block.querySelectorAll("span")].map((span) => {
          const [fg, bg] = [
            luminance(getComputedStyle(span).color),
            luminance(
              getComputedStyle(span.classList.contains("badge") ? span : block).backgroundColor,
            ),
          ];
          return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
        }),
      );
    });
    expect(Math.min(...contrasts)).toBeGreaterThanOrEqual(4.5);

    // The blocks are the programmes of the published PI document, CRID for CRID.
    const response = await fetch(`${target.origin}/${BERN_PI}`, {
      headers: { authorization: `ClientIdentifier ${KEY}` },
    });
    expect(response.status).toBe(200);
    const published = new Set(
      [...(await response.text()).matchAll(/<programme [^>]*id="([^"]+)"/g)].map((m) => m[1]),
    );
    const crids = await bern
      .locator("button.block")
      .evaluateAll((b) => b.map((x) => x.dataset.crid));
    expect(crids.length).toBeGreaterThan(5);
    for (const crid of crids) expect(published).toContain(crid);

    // Keyboard: focus a programme, move right and down, details follow.
    await bern.locator("button.block").nth(1).focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.locator("#details h2").textContent()).toBe("Mornings with Claudia Wenger");
    await page.keyboard.press("ArrowDown");
    expect(await page.locator("#details h2").textContent()).toBe(
      "Matinee: Vom Barock bis zur Romantik",
    );
    // A programme's genre by its term's label, as a receiver shows it; the URN on hover.
    await page
      .locator('.row[data-service="pop"] button.block', { hasText: "New Music" })
      .first()
      .click();
    expect(await page.locator("#details h2").textContent()).toBe(
      "New Music Tonight with Mira Zaugg",
    );
    const genre = page.locator("#details .genre");
    expect(await genre.allTextContents()).toEqual(["Alternative / Indie"]);
    expect(await genre.getAttribute("title")).toBe("urn:tva:metadata:cs:ContentCS:2011:3.6.4.14.6");
    await page.screenshot({ path: join(ARTIFACTS, "week.png") });
    // What a receiver shows: the names cut to 8 and 16 characters, a logo per expected size.
    await bern.getByText("On a receiver").click();
    expect(await bern.locator(".receiver .name").allTextContents()).toEqual([
      "AareBern",
      "Aare Bern       ",
    ]);
    expect(await bern.locator(".receiver figcaption").allTextContents()).toEqual([
      "32x32 dark",
      "32x32 light",
      "112x32",
      "128x128",
      "320x240",
      "600x600",
    ]);
    // The logos the build made load from the preview itself, each at its pixel size.
    const loaded = await bern.locator(".receiver img.logo").evaluateAll((images) =>
      Promise.all(
        images.map(async (img) => {
          const image = img as HTMLImageElement;
          image.loading = "eager";
          await image.decode();
          return `${image.naturalWidth}x${image.naturalHeight}`;
        }),
      ),
    );
    expect(loaded).toEqual(["32x32", "32x32", "112x32", "128x128", "320x240", "600x600"]);
    // The PI link goes through the edge rules with the development key.
    await bern.getByText("PI for this day").click();
    await page.locator("#doc").waitFor({ state: "visible" });
    expect(await page.locator("#doc-meta").textContent()).toMatch(/^200 OK · application\/xml/);
    expect(await page.locator("#doc-body").textContent()).toContain("Zibelemärit");
    await page.keyboard.press("Escape");

    // Another day of the window: Sunday's election special on Aare News.
    await page.locator('.days button[data-date="2026-11-29"]').click();
    await page.locator('.days button[data-date="2026-11-29"][aria-pressed="true"]').waitFor();
    expect(await blockLabels(page, "news")).toContainEqual([
      "17:00–23:30",
      "SPECIALElection Night",
    ]);
    expect(await page.locator(".now-line").count()).toBe(0);
    expect(offsite.filter((url) => !url.startsWith("https://img.aareradio.example/"))).toEqual([]);
    await page.close();
  });

  it("draws the night the clocks go back as 25 hours with 02:00 twice", async () => {
    const page = await openPage(dst as Dev);
    const news = page.locator('.row[data-service="news"]');
    expect(await news.locator(".track").getAttribute("data-hours")).toBe("25");
    expect(await news.locator(".tick.repeat").textContent()).toBe("02:00");
    expect(await news.locator(".service").textContent()).toContain("UTC+02:00 → UTC+01:00");
    expect(await page.locator('.days button[aria-current="date"]').textContent()).toContain(
      "25 h: clocks change",
    );
    await page.screenshot({ path: join(ARTIFACTS, "dst-week.png") });
    await page.close();
  });

  it("updates by itself on save, shows an invalid save's problems over the last good grid, and clears them when fixed", async () => {
    const target = dev as Dev;
    const page = await openPage(target);
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    const schedule = join(target.dir, "data/schedules/bern.yaml");
    const original = await readFile(schedule, "utf8");
    const lunch = '      - { start: "12:00", show: lunchtime }\n';
    expect(original).toContain(lunch);

    // A slot that ends early: the grid gets dead air and the slot its warning, without a reload.
    const gappy = original.replace(
      lunch,
      '      - { start: "12:00", end: "12:45", show: lunchtime }\n',
    );
    await writeFile(schedule, gappy);
    const bern = page.locator('.row[data-service="bern"]');
    await bern.locator(".block.gap").first().waitFor({ timeout: 20_000 });
    expect((await blockLabels(page, "bern")).slice(3, 5)).toEqual([
      ["12:00–12:45", "⚠ Lunchtime Local"],
      ["12:45–13:00", "dead air"],
    ]);
    expect(
      await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).toBe(true);

    // An error: the problems appear, exactly as validate prints them; grid and API stay as they were.
    const broken = gappy.replace(
      '{ start: "13:00", show: afternoons }',
      '{ start: "25:00", show: afternoons }',
    );
    await writeFile(schedule, broken);
    await page.locator("#problems").waitFor({ state: "visible", timeout: 20_000 });
    const validate = await runCli(["validate", "--data", "data", "--now", NOW], target.dir);
    const errors = validate.stdout
      .split("\n")
      .filter((line) => line.startsWith("data/") && !line.includes("warning:"));
    expect(errors.length).toBeGreaterThan(0);
    const shown = await page.locator("#problem-list li").allTextContents();
    for (const error of errors) expect(shown).toContain(error);
    expect(await bern.locator(".block.gap").count()).toBeGreaterThan(0);
    const pi = await fetch(`${target.origin}/${BERN_PI}`, {
      headers: { authorization: `ClientIdentifier ${KEY}` },
    });
    expect(pi.status).toBe(200);
    expect(await pi.text()).toContain('duration="PT45M"');
    await page.screenshot({ path: join(ARTIFACTS, "error.png") });
    expect(target.output()).toContain(errors[0]);

    // Fixed: the problems go, the grid is the original again.
    await writeFile(schedule, original);
    await page.locator("#problems").waitFor({ state: "hidden", timeout: 20_000 });
    await page.waitForFunction(
      () => document.querySelectorAll('.row[data-service="bern"] .block.gap').length === 0,
    );
    expect((await blockLabels(page, "bern"))[3]).toEqual(["12:00–13:00", "Lunchtime Local"]);
    expect(
      await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).toBe(true);
    await page.close();
  });
});
